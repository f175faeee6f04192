(* Lemma 2 of proofs/symbolic-gap.md (the largest profile threshold): for a
   maximum t of a query, the choice where every position takes its largest
   offer below t and the maximising set is as small as possible has the
   pointwise largest TV, hence the largest threshold; the engine's symbolic
   scan and the checker's profile judgement (src/check/check_profile.cpp)
   judge that choice only.

   At a fixed beta, position j's term is b_j = exp(-beta (t - pred_j)), its
   largest offer below t (b_j = 0 when it offers nothing below t: it is
   forced to hold t). A choice's X sums x_j over the positions it keeps
   below t, with x_j <= b_j (an offer below t is at most pred_j), and
   x_q = 0 on its maximising set (size k >= 1, every forced position in
   it). The worst choice keeps below t every position that can be:
   X = sum_j b_j with k = #forced when some position is forced, else
   X = sum_j b_j - b_p with k = 1 for the holder p of least b_p. By the
   identity TV = X/(k + X) (Softmax.tv_below_identity), TV is largest for
   the largest X and the least k. *)
From Coq Require Import Reals Lra Lia List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* A choice's terms x against the largest terms b, position by position. *)
Definition bounded_by (x b : list R) : Prop :=
  length x = length b /\ forall j, (j < length b)%nat -> 0 <= nth j x 0 <= nth j b 0.

Lemma sum_le_bounded : forall x b, bounded_by x b -> sumR x <= sumR b.
Proof.
  induction x as [|a x IH]; intros [|c b] [Hl Hj]; simpl in *; try lia; try lra.
  assert (H0 := Hj 0%nat ltac:(lia)). simpl in H0.
  assert (bounded_by x b).
  { split; [lia|]. intros j Hjb. apply (Hj (S j)). lia. }
  specialize (IH b H). lra.
Qed.

Lemma sum_nonneg_bounded : forall x b, bounded_by x b -> 0 <= sumR x.
Proof.
  induction x as [|a x IH]; intros [|c b] [Hl Hj]; simpl in *; try lia; try lra.
  assert (H0 := Hj 0%nat ltac:(lia)). simpl in H0.
  assert (0 <= sumR x) by (apply (IH b); split; [lia|intros j Hjb; apply (Hj (S j)); lia]).
  lra.
Qed.

(* A position q that the choice holds at t (x_q = 0) leaves out its b_q. *)
Theorem choice_leaves_holder : forall x b q, bounded_by x b -> (q < length b)%nat ->
  nth q x 0 = 0 -> sumR x <= sumR b - nth q b 0.
Proof.
  induction x as [|a x IH]; intros [|c b] q [Hl Hj] Hq Hx0; simpl in *; try lia.
  assert (H0 := Hj 0%nat ltac:(lia)). simpl in H0.
  assert (Hb : bounded_by x b).
  { split; [lia|]. intros j Hjb. apply (Hj (S j)). lia. }
  destruct q as [|q].
  - simpl in Hx0. subst a. pose proof (sum_le_bounded x b Hb). lra.
  - simpl. specialize (IH b q Hb ltac:(lia) Hx0). lra.
Qed.

(* TV = X/(k + X) grows with X and falls with k. *)
Lemma frac_dominated : forall X X' k k', 0 <= X' <= X -> 1 <= k <= k' ->
  X' / (k' + X') <= X / (k + X).
Proof.
  intros X X' k k' HX Hk.
  apply Rle_trans with (X / (k' + X)).
  - apply frac_mono; lra.
  - apply frac_mono_k; lra.
Qed.

(* With no forced position: the worst choice holds t at the position p of
   least b_p, every other position at its largest offer below t, k = 1.
   Any choice holding t at some q (k' >= 1 positions) has TV at most its. *)
Theorem worst_single_holder : forall x b p q (k' : R),
  bounded_by x b -> (p < length b)%nat -> (q < length b)%nat ->
  (forall j, (j < length b)%nat -> nth p b 0 <= nth j b 0) ->
  nth q x 0 = 0 -> 1 <= k' ->
  sumR x / (k' + sumR x) <= (sumR b - nth p b 0) / (1 + (sumR b - nth p b 0)).
Proof.
  intros x b p q k' Hb Hp Hq Hmin Hx Hk.
  pose proof (choice_leaves_holder x b q Hb Hq Hx).
  pose proof (Hmin q Hq).
  pose proof (sum_nonneg_bounded x b Hb).
  apply frac_dominated; lra.
Qed.

(* With forced positions (b_j = 0: nothing below t), the worst choice keeps
   every other position below t: X = sum_j b_j, k = #forced; any choice has
   X' <= sum_j b_j and holds at least the forced positions, k' >= k. *)
Theorem worst_forced : forall x b (k k' : R),
  bounded_by x b -> 1 <= k <= k' ->
  sumR x / (k' + sumR x) <= sumR b / (k + sumR b).
Proof.
  intros x b k k' Hb Hk.
  pose proof (sum_le_bounded x b Hb).
  pose proof (sum_nonneg_bounded x b Hb).
  apply frac_dominated; lra.
Qed.

(* Pointwise largest TV gives the largest threshold: a beta at which the
   worst choice is within eps has every choice within eps. *)
Theorem worst_threshold : forall (tv_worst tv_any : R -> R) eps beta,
  (forall b, 0 <= b -> tv_any b <= tv_worst b) -> 0 <= beta ->
  tv_worst beta <= eps -> tv_any beta <= eps.
Proof.
  intros tv_worst tv_any eps beta H Hb Hw. specialize (H beta Hb). lra.
Qed.
