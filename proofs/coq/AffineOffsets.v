(* Lemma 3 of proofs/symbolic-gap.md ("Affine scores"): for two runs of
   offers alpha + c j, the differences at key offsets k are delta + c k,
   and the least positive one over the allowed offsets (an integer range
   without 0) is at the least allowed k past the root -delta/c when c > 0
   (the greatest allowed k before it when c < 0). affine_min_gap picks
   k = max(klo, floor(-delta/c) + 1), moved from 0 to 1; its double filter
   picks the same k. *)
From Coq Require Import Reals Lra Lia ZArith.
Open Scope R_scope.

(* On one side of the root the values keep their sign: with c > 0, every
   k <= f where delta + c f <= 0 gives delta + c k <= 0. *)
Lemma nonpositive_below : forall delta c (f k : Z), 0 < c ->
  delta + c * IZR f <= 0 -> (k <= f)%Z -> delta + c * IZR k <= 0.
Proof.
  intros delta c f k Hc Hf Hk. apply IZR_le in Hk.
  assert (c * IZR k <= c * IZR f) by (apply Rmult_le_compat_l; lra). lra.
Qed.

(* c > 0: if every allowed k below kstar gives a value <= 0 and kstar's is
   positive, kstar's is the least positive value over the allowed k. *)
Theorem least_positive_up : forall (allowed : Z -> Prop) delta c (kstar k : Z), 0 < c ->
  (forall j, allowed j -> (j < kstar)%Z -> delta + c * IZR j <= 0) ->
  allowed k -> 0 < delta + c * IZR k ->
  delta + c * IZR kstar <= delta + c * IZR k.
Proof.
  intros allowed delta c kstar k Hc Hbelow Hk Hpos.
  destruct (Z_lt_le_dec k kstar) as [Hlt|Hge].
  - specialize (Hbelow k Hk Hlt). lra.
  - apply IZR_le in Hge.
    assert (c * IZR kstar <= c * IZR k) by (apply Rmult_le_compat_l; lra). lra.
Qed.

(* c < 0: the mirror image, the greatest allowed k before the root. *)
Theorem least_positive_down : forall (allowed : Z -> Prop) delta c (kstar k : Z), c < 0 ->
  (forall j, allowed j -> (kstar < j)%Z -> delta + c * IZR j <= 0) ->
  allowed k -> 0 < delta + c * IZR k ->
  delta + c * IZR kstar <= delta + c * IZR k.
Proof.
  intros allowed delta c kstar k Hc Habove Hk Hpos.
  destruct (Z_lt_le_dec kstar k) as [Hlt|Hle].
  - specialize (Habove k Hk Hlt). lra.
  - apply IZR_le in Hle.
    assert (c * IZR k >= c * IZR kstar) by nra. lra.
Qed.

(* The code's choice meets the hypothesis: with f = floor(-delta/c) (so
   delta + c f <= 0 when c > 0) and kstar = max(klo, f + 1) moved from 0 to
   1, every allowed j < kstar (allowed: klo <= j <= khi, j <> 0) is <= f. *)
Theorem chosen_offset_up : forall delta c (f klo khi : Z), 0 < c ->
  delta + c * IZR f <= 0 ->
  let k0 := Z.max klo (f + 1) in
  let kstar := if Z.eq_dec k0 0 then 1%Z else k0 in
  forall j, (klo <= j <= khi)%Z -> j <> 0%Z -> (j < kstar)%Z -> delta + c * IZR j <= 0.
Proof.
  intros delta c f klo khi Hc Hf k0 kstar j Hj Hj0 Hlt.
  apply (nonpositive_below delta c f j Hc Hf).
  unfold kstar, k0 in Hlt. destruct (Z.eq_dec (Z.max klo (f + 1)) 0) as [E|E]; lia.
Qed.
