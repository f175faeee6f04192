(* The counting heads' lattice (proofs/layerwise.md, "Counting heads"): a
   uniform head's count coordinate holds at query i the numerator
   z = b + v_1 + ... + v_i (b from BOS's set, each v_j from a real
   position's set V), and a counting head's score difference is
   a + (1/N) sum_c g_c z_c. With step_c dividing every difference inside
   V_c and inside B_c:
   - z lies in [min B + i min V, max B + i max V] and z = b0 + i v0 modulo
     step (sum_on_lattice, sum_in_range);
   - sum_c g_c z_c lies on O + G Z when G divides every g_c step_c
     (combination_on_lattice),
   so the least nonzero value over that lattice within the range bounds
   every word's (src/certify/layerwise_counts.cpp, src/check/check_counts.cpp). *)
From Coq Require Import Reals Lra Lia List ZArith.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* v is v0 plus an integer number of steps. *)
Definition on_lattice (v0 s v : R) : Prop := exists m : Z, v = v0 + IZR m * s.

Theorem sum_on_lattice : forall v0 s vs,
  Forall (on_lattice v0 s) vs ->
  exists M : Z, sumR vs = INR (length vs) * v0 + IZR M * s.
Proof.
  intros v0 s vs H; induction H as [|v t [m Hm] _ [M HM]].
  - exists 0%Z. simpl. lra.
  - exists (m + M)%Z. cbn [sumR length]. rewrite S_INR, plus_IZR, Hm, HM. ring.
Qed.

(* BOS's contribution b, on its own lattice with the same step. *)
Theorem numerator_on_lattice : forall b0 v0 s b vs,
  on_lattice b0 s b -> Forall (on_lattice v0 s) vs ->
  exists M : Z, b + sumR vs = b0 + INR (length vs) * v0 + IZR M * s.
Proof.
  intros b0 v0 s b vs [m Hm] H. destruct (sum_on_lattice v0 s vs H) as [M HM].
  exists (m + M)%Z. rewrite plus_IZR, Hm, HM. ring.
Qed.

Theorem sum_in_range : forall lo hi vs,
  Forall (fun v => lo <= v <= hi) vs ->
  INR (length vs) * lo <= sumR vs <= INR (length vs) * hi.
Proof.
  intros lo hi vs H; induction H as [|v t Hv _ IH].
  - simpl. lra.
  - cbn [sumR length]. rewrite S_INR. lra.
Qed.

(* One count coordinate of the score difference: weight g, numerator
   z = o + M step, and g step an integer multiple k of G. *)
Record term := { g : R; o : R; step : R; M : Z; k : Z }.

Definition term_ok (G : R) (t : term) : Prop := g t * step t = IZR (k t) * G.

Definition value (t : term) : R := g t * (o t + IZR (M t) * step t).

Theorem combination_on_lattice : forall G ts, Forall (term_ok G) ts ->
  exists T : Z, sumR (map value ts) = sumR (map (fun t => g t * o t) ts) + IZR T * G.
Proof.
  intros G ts H; induction H as [|t ts Ht _ [T HT]].
  - exists 0%Z. simpl. lra.
  - exists (M t * k t + T)%Z. cbn [map sumR]. rewrite HT, plus_IZR, mult_IZR.
    unfold value at 1. unfold term_ok in Ht.
    replace (g t * (o t + IZR (M t) * step t))
      with (g t * o t + IZR (M t) * (g t * step t)) by ring.
    rewrite Ht. ring.
Qed.

(* The least |c + G t| over the integers t is at a neighbour of the real
   root -c/G: t0 with c + G t0 <= 0 <= c + G (t0 + 1). *)
Theorem lattice_nearest : forall c G (t0 t : Z), 0 < G ->
  c + IZR t0 * G <= 0 -> 0 <= c + IZR (t0 + 1) * G ->
  Rmin (- (c + IZR t0 * G)) (c + IZR (t0 + 1) * G) <= Rabs (c + IZR t * G).
Proof.
  intros c G t0 t HG Hlo Hhi.
  destruct (Z_le_gt_dec t t0) as [Ht|Ht].
  - apply IZR_le in Ht.
    assert (IZR t * G <= IZR t0 * G) by (apply Rmult_le_compat_r; lra).
    rewrite Rabs_left1 by lra.
    apply Rle_trans with (- (c + IZR t0 * G)); [apply Rmin_l|lra].
  - assert (Ht' : (t0 + 1 <= t)%Z) by lia. apply IZR_le in Ht'.
    assert (IZR (t0 + 1) * G <= IZR t * G) by (apply Rmult_le_compat_r; lra).
    rewrite Rabs_right by lra.
    apply Rle_trans with (c + IZR (t0 + 1) * G); [apply Rmin_r|lra].
Qed.

(* On one side of the root |c + G t| only grows away from it, so over a
   range of t left of the root the least is at the range's upper end, and
   right of it at the lower end. *)
Theorem lattice_left_side : forall c G (t t1 : Z), 0 < G ->
  (t <= t1)%Z -> c + IZR t1 * G <= 0 -> Rabs (c + IZR t1 * G) <= Rabs (c + IZR t * G).
Proof.
  intros c G t t1 HG Ht H1. apply IZR_le in Ht.
  assert (IZR t * G <= IZR t1 * G) by (apply Rmult_le_compat_r; lra).
  rewrite !Rabs_left1 by lra. lra.
Qed.

Theorem lattice_right_side : forall c G (t t1 : Z), 0 < G ->
  (t1 <= t)%Z -> 0 <= c + IZR t1 * G -> Rabs (c + IZR t1 * G) <= Rabs (c + IZR t * G).
Proof.
  intros c G t t1 HG Ht H1. apply IZR_le in Ht.
  assert (IZR t1 * G <= IZR t * G) by (apply Rmult_le_compat_r; lra).
  rewrite !Rabs_right by lra. lra.
Qed.
