(* The perturbation argument's weight step (proofs/perturbation.md, "One
   layer", 2, first bullet): when every score of the hard maximising set M
   is within e of the hard maximum s* and every other score is at most
   s* - gamma + e, softmax puts at most X/(1+X) outside M, with
   X = (N-1) e^(-beta (gamma - 2e)). A position is a pair (soft score,
   whether it is in M), as in CheckerBound.v. *)
From Coq Require Import Reals Lra Lia List.
From TempcertProofs Require Import Softmax CheckerBound.
Import ListNotations.
Open Scope R_scope.

Definition mass_in (beta : R) (l : list (R * bool)) : R :=
  sumR (map (fun x : R * bool => if snd x then exp (beta * fst x) else 0) l).
Definition mass_out (beta : R) (l : list (R * bool)) : R :=
  sumR (map (fun x : R * bool => if snd x then 0 else exp (beta * fst x)) l).

(* the soft weight outside M *)
Definition p_out (beta : R) (l : list (R * bool)) : R :=
  sumR (map (fun x : R * bool => if snd x then 0 else ps beta l x) l).

Lemma zs_split : forall beta l, zs beta l = mass_in beta l + mass_out beta l.
Proof.
  intros beta l; induction l as [|x t IH]; unfold zs, mass_in, mass_out in *; simpl; [ring|].
  rewrite IH. destruct (snd x); ring.
Qed.

Lemma p_out_ratio : forall beta l, p_out beta l = mass_out beta l / zs beta l.
Proof.
  intros beta l.
  assert (H : forall t, sumR (map (fun x : R * bool => if snd x then 0 else ps beta l x) t)
                        = mass_out beta t / zs beta l).
  { intros t; induction t as [|x t IH]; unfold mass_out in *; simpl; [unfold Rdiv; ring|].
    rewrite IH. unfold ps. destruct (snd x); unfold Rdiv; ring. }
  apply H.
Qed.

(* Scores as the argument bounds them. *)
Definition perturbed (smax e gamma : R) (l : list (R * bool)) : Prop :=
  Forall (fun x : R * bool => if snd x then smax - e <= fst x else fst x <= smax - gamma + e) l.

Lemma mass_in_lower : forall beta smax e gamma l, 0 <= beta -> perturbed smax e gamma l ->
  INR (cnt l) * exp (beta * (smax - e)) <= mass_in beta l.
Proof.
  intros beta smax e gamma l Hb Hp; induction l as [|x t IH]; [unfold mass_in, cnt; simpl; lra|].
  inversion Hp as [|? ? Hx Ht]; subst. specialize (IH Ht).
  unfold mass_in in *. cbn [map sumR]. rewrite cnt_cons.
  destruct (snd x).
  - rewrite plus_INR. change (INR 1) with 1.
    assert (exp (beta * (smax - e)) <= exp (beta * fst x)) by (apply exp_le_of_le; nra). lra.
  - change (INR (0 + cnt t)) with (INR (cnt t)). lra.
Qed.

Lemma mass_out_upper : forall beta smax e gamma l, 0 <= beta -> perturbed smax e gamma l ->
  mass_out beta l <= (INR (length l) - INR (cnt l)) * exp (beta * (smax - gamma + e)).
Proof.
  intros beta smax e gamma l Hb Hp; induction l as [|x t IH]; [unfold mass_out, cnt; simpl; lra|].
  inversion Hp as [|? ? Hx Ht]; subst. specialize (IH Ht).
  unfold mass_out in *. cbn [map sumR length]. rewrite cnt_cons, S_INR.
  destruct (snd x).
  - rewrite plus_INR. change (INR 1) with 1. lra.
  - change (INR (0 + cnt t)) with (INR (cnt t)).
    assert (exp (beta * fst x) <= exp (beta * (smax - gamma + e))) by (apply exp_le_of_le; nra). lra.
Qed.

Theorem weight_outside_bound : forall beta smax e gamma N l,
  0 <= beta -> perturbed smax e gamma l -> (1 <= cnt l)%nat -> INR (length l) <= N ->
  let X := (N - 1) * exp (- (beta * (gamma - 2 * e))) in
  p_out beta l <= X / (1 + X).
Proof.
  intros beta smax e gamma N l Hb Hp Hk HN X.
  rewrite p_out_ratio, zs_split.
  set (A := mass_in beta l). set (B := mass_out beta l).
  set (m := INR (cnt l)). set (len := INR (length l)).
  set (E := exp (beta * (smax - gamma + e))).
  assert (Hm : 1 <= m) by (unfold m; pose proof (le_INR _ _ Hk) as T; simpl in T; exact T).
  assert (Hml : m <= len) by (apply le_INR, cnt_le_length).
  assert (HNl : len <= N) by exact HN.
  assert (HE : 0 < E) by apply exp_pos.
  assert (HA : m * exp (beta * (smax - e)) <= A) by (apply (mass_in_lower _ _ _ gamma); assumption).
  assert (HB : B <= (len - m) * E) by (apply mass_out_upper; assumption).
  assert (HB0 : 0 <= B).
  { unfold B, mass_out. clear. induction l as [|x t IH]; simpl; [lra|].
    destruct (snd x); [lra|]. pose proof (exp_pos (beta * fst x)). lra. }
  assert (Hmax : 0 < exp (beta * (smax - e))) by apply exp_pos.
  assert (HA0 : 0 < A) by nra.
  (* X A >= (N-1) m E >= (len - m) E >= B *)
  assert (HXE : X * exp (beta * (smax - e)) = (N - 1) * E).
  { unfold X, E. rewrite Rmult_assoc, <- exp_plus. f_equal. f_equal. ring. }
  assert (HX0 : 0 <= X).
  { unfold X. apply Rmult_le_pos; [lra | left; apply exp_pos]. }
  assert (HXA : B <= X * A).
  { apply Rle_trans with ((len - m) * E); [exact HB|].
    apply Rle_trans with ((N - 1) * m * E).
    - apply Rmult_le_compat_r; [lra|]. nra.
    - replace ((N - 1) * m * E) with (m * (X * exp (beta * (smax - e)))) by (rewrite HXE; ring).
      replace (X * A) with (X * A) by reflexivity. nra. }
  apply (Rmult_le_reg_r ((A + B) * (1 + X))); [nra|].
  replace (B / (A + B) * ((A + B) * (1 + X))) with (B * (1 + X)) by (field; lra).
  replace (X / (1 + X) * ((A + B) * (1 + X))) with (X * (A + B)) by (field; lra).
  nra.
Qed.

(* The triangle inequality that joins the two terms (proofs/perturbation.md,
   "One layer", 2): TV(p, u) <= p(outside M) + TV(p|M, u), p|M the soft
   weights conditioned on M, u uniform on M. Both TVs are written as the
   mass u puts above the other (CheckerBound.tvs_positive_part for the
   first; HeadOutput.positive_part_is_tv makes it TV for the second). *)
Definition p_given_m (beta : R) (l : list (R * bool)) (x : R * bool) : R :=
  if snd x then exp (beta * fst x) / mass_in beta l else 0.

Lemma mass_in_pos : forall beta l, (1 <= cnt l)%nat -> 0 < mass_in beta l.
Proof.
  intros beta l; induction l as [|x t IH]; intros Hk; [unfold cnt in Hk; simpl in Hk; lia|].
  unfold mass_in in *. cbn [map sumR]. rewrite cnt_cons in Hk.
  assert (H0 : 0 <= sumR (map (fun x : R * bool => if snd x then exp (beta * fst x) else 0) t)).
  { clear. induction t as [|y t IH]; simpl; [lra|]. destruct (snd y); [pose proof (exp_pos (beta * fst y))|]; lra. }
  destruct (snd x).
  - pose proof (exp_pos (beta * fst x)). lra.
  - assert (1 <= cnt t)%nat by lia. specialize (IH H). lra.
Qed.

Lemma mass_out_nonneg : forall beta l, 0 <= mass_out beta l.
Proof.
  intros beta l; induction l as [|x t IH]; unfold mass_out in *; simpl; [lra|].
  destruct (snd x); [|pose proof (exp_pos (beta * fst x))]; lra.
Qed.

Theorem tv_triangle : forall beta l, (1 <= cnt l)%nat ->
  tvs beta l <= sumR (map (fun x => Rmax 0 (hs (INR (cnt l)) x - p_given_m beta l x)) l)
                + p_out beta l.
Proof.
  intros beta l Hk.
  rewrite tvs_positive_part by exact Hk.
  pose proof (mass_in_pos beta l Hk) as HI.
  pose proof (mass_out_nonneg beta l) as HO.
  assert (HZ : zs beta l = mass_in beta l + mass_out beta l) by apply zs_split.
  set (K := INR (cnt l)).
  (* pointwise: max(0, h - p) <= max(0, h - p|M) + (p|M - p) on M, and 0 off M *)
  set (gap := fun x : R * bool => if snd x then p_given_m beta l x - ps beta l x else 0).
  apply Rle_trans with (sumR (map (fun x => Rmax 0 (hs K x - p_given_m beta l x) + gap x) l)).
  - apply sumR_map_le. intros x _. unfold gap, hs, p_given_m, ps.
    destruct (snd x).
    + assert (Hle : exp (beta * fst x) / zs beta l <= exp (beta * fst x) / mass_in beta l).
      { unfold Rdiv. apply Rmult_le_compat_l; [left; apply exp_pos|].
        apply Rinv_le_contravar; lra. }
      unfold Rmax. destruct (Rle_dec 0 (/ K - exp (beta * fst x) / zs beta l));
        destruct (Rle_dec 0 (/ K - exp (beta * fst x) / mass_in beta l)); lra.
    + assert (0 <= exp (beta * fst x) / zs beta l).
      { unfold Rdiv. apply Rmult_le_pos; [left; apply exp_pos | left; apply Rinv_0_lt_compat; lra]. }
      unfold Rmax. destruct (Rle_dec 0 (0 - exp (beta * fst x) / zs beta l)); destruct (Rle_dec 0 (0 - 0)); lra.
  - rewrite sumR_map_plus. apply Rplus_le_compat_l.
    (* sum over M of (p|M - p) = 1 - p(M) = p(outside M) *)
    assert (Hg : forall t, sumR (map gap t) = mass_in beta t / mass_in beta l - mass_in beta t / zs beta l).
    { intros t; induction t as [|x t IH]; unfold mass_in in *; cbn [map sumR]; [unfold Rdiv; ring|].
      rewrite IH. unfold gap, p_given_m, ps. destruct (snd x); unfold mass_in, Rdiv; ring. }
    rewrite Hg, p_out_ratio, HZ. right. field. split; apply Rgt_not_eq; lra.
Qed.
