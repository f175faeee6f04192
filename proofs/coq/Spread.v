(* The perturbation argument's spread competitors (proofs/perturbation.md,
   "One layer", 2, "Spread competitors"): keys fall into k classes, and
   within a class the gaps of distinct positions differ by multiples of
   |c| >= s > 0, so sorted they are at least s apart, the first at least
   gamma. Then sum_j e^(-beta d_j) <= k e^(-beta gamma) / (1 - e^(-beta s)). *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* one class: its gaps in increasing order, the first at least lo, each
   next at least s above the one before *)
Fixpoint spaced (s lo : R) (l : list R) : Prop :=
  match l with
  | [] => True
  | d :: t => lo <= d /\ spaced s (d + s) t
  end.

Definition weight_sum (beta : R) (l : list R) : R := sumR (map (fun d => exp (- (beta * d))) l).

Lemma class_sum : forall beta s l lo, 0 < beta -> 0 < s -> spaced s lo l ->
  weight_sum beta l <= exp (- (beta * lo)) / (1 - exp (- (beta * s))).
Proof.
  intros beta s l; induction l as [|d t IH]; intros lo Hb Hs Hsp.
  - unfold weight_sum. simpl.
    assert (Hq : exp (- (beta * s)) < 1) by (rewrite <- exp_0; apply exp_increasing; nra).
    unfold Rdiv. apply Rmult_le_pos; [left; apply exp_pos | left; apply Rinv_0_lt_compat; lra].
  - destruct Hsp as [Hd Ht]. specialize (IH (d + s) Hb Hs Ht).
    unfold weight_sum in *. cbn [map sumR].
    set (q := exp (- (beta * s))). set (ed := exp (- (beta * d))).
    assert (Hq : q < 1) by (unfold q; rewrite <- exp_0; apply exp_increasing; nra).
    assert (Hq0 : 0 < q) by apply exp_pos.
    assert (Hed : 0 < ed) by apply exp_pos.
    assert (Hnext : exp (- (beta * (d + s))) = ed * q).
    { unfold ed, q. rewrite <- exp_plus. f_equal. ring. }
    rewrite Hnext in IH. fold q in IH.
    assert (Hlo : ed <= exp (- (beta * lo))) by (unfold ed; apply exp_le_of_le; nra).
    apply Rle_trans with (ed / (1 - q)).
    + apply (Rplus_le_compat_l ed) in IH.
      replace (ed + ed * q / (1 - q)) with (ed / (1 - q)) in IH by (field; lra).
      exact IH.
    + unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | exact Hlo].
Qed.

Theorem spread_sum : forall beta s gamma classes, 0 < beta -> 0 < s ->
  Forall (spaced s gamma) classes ->
  weight_sum beta (concat classes)
    <= INR (length classes) * (exp (- (beta * gamma)) / (1 - exp (- (beta * s)))).
Proof.
  intros beta s gamma classes Hb Hs Hc; induction classes as [|c cs IH].
  - unfold weight_sum. simpl. lra.
  - inversion Hc as [|? ? Hc1 Hcs]; subst. specialize (IH Hcs).
    cbn [concat length]. rewrite S_INR.
    unfold weight_sum in *. rewrite map_app, sumR_app.
    pose proof (class_sum beta s c gamma Hb Hs Hc1) as H1. unfold weight_sum in H1.
    lra.
Qed.
