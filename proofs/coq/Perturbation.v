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
