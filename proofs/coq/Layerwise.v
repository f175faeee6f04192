(* The layerwise rounding check's step (proofs/layerwise.md, "The method",
   3): a feed-forward unit with pre-activation z(x) = b + sum_c W1_c x_c,
   whose inputs move by at most radius_c from the hard d, moves by at most
   R = sum_c |W1_c| radius_c; so z(d) >= R or z(d) <= -R keeps its phase on
   the whole box, where ReLU is then affine (z itself, or 0). A coordinate
   is a triple (W1_c, x_c, d_c), with its radius beside it. *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* coordinates: (weight, radius, soft input, hard input) *)
Definition coord := (R * R * R * R)%type.
Definition w_of (c : coord) : R := fst (fst (fst c)).
Definition r_of (c : coord) : R := snd (fst (fst c)).
Definition x_of (c : coord) : R := snd (fst c).
Definition d_of (c : coord) : R := snd c.

Definition z_soft (b : R) (cs : list coord) : R := b + sumR (map (fun c => w_of c * x_of c) cs).
Definition z_hard (b : R) (cs : list coord) : R := b + sumR (map (fun c => w_of c * d_of c) cs).
Definition reach (cs : list coord) : R := sumR (map (fun c => Rabs (w_of c) * r_of c) cs).

Lemma preact_moves : forall b cs,
  Forall (fun c => Rabs (x_of c - d_of c) <= r_of c) cs ->
  Rabs (z_soft b cs - z_hard b cs) <= reach cs.
Proof.
  intros b cs H; induction cs as [|c t IH].
  - unfold z_soft, z_hard, reach. simpl. replace (b + 0 - (b + 0)) with 0 by ring.
    rewrite Rabs_R0. lra.
  - inversion H as [|? ? Hc Ht]; subst. specialize (IH Ht).
    unfold z_soft, z_hard, reach in *. cbn [map sumR].
    replace (b + (w_of c * x_of c + sumR (map (fun c0 => w_of c0 * x_of c0) t)) -
             (b + (w_of c * d_of c + sumR (map (fun c0 => w_of c0 * d_of c0) t))))
      with (w_of c * (x_of c - d_of c) +
            (b + sumR (map (fun c0 => w_of c0 * x_of c0) t) -
             (b + sumR (map (fun c0 => w_of c0 * d_of c0) t)))) by ring.
    eapply Rle_trans; [apply Rabs_triang|].
    rewrite Rabs_mult.
    assert (Rabs (w_of c) * Rabs (x_of c - d_of c) <= Rabs (w_of c) * r_of c)
      by (apply Rmult_le_compat_l; [apply Rabs_pos | exact Hc]).
    lra.
Qed.

(* The unit keeps its phase on the box: ReLU(z(x)) is z(x) when z(d) >= R,
   and 0 when z(d) <= -R. *)
Theorem unit_keeps_phase : forall b cs,
  Forall (fun c => Rabs (x_of c - d_of c) <= r_of c) cs ->
  (reach cs <= z_hard b cs -> Rmax 0 (z_soft b cs) = z_soft b cs) /\
  (z_hard b cs <= - reach cs -> Rmax 0 (z_soft b cs) = 0).
Proof.
  intros b cs H. pose proof (preact_moves b cs H) as Hm.
  assert (Hlo : z_hard b cs - reach cs <= z_soft b cs <= z_hard b cs + reach cs).
  { unfold Rabs in Hm. destruct (Rcase_abs (z_soft b cs - z_hard b cs)); lra. }
  split; intro Hz.
  - apply Rmax_right. lra.
  - apply Rmax_left. lra.
Qed.

(* The perturbation argument's kink units (proofs/perturbation.md, "One
   layer", 4): a unit whose pre-activation z moves to z' with |z' - z| <= R
   moves its output by at most R (ReLU is 1-Lipschitz), and by at most
   z + R when z < 0 (below 0 it rises only by what passes 0). *)
Theorem relu_deviation : forall z z' R, Rabs (z' - z) <= R ->
  Rabs (Rmax 0 z' - Rmax 0 z) <= R /\
  (z < 0 -> Rabs (Rmax 0 z' - Rmax 0 z) <= Rmax 0 (z + R)).
Proof.
  intros z z' R H.
  assert (Hb : z - R <= z' <= z + R) by (unfold Rabs in H; destruct (Rcase_abs (z' - z)); lra).
  split.
  - unfold Rmax, Rabs. destruct (Rle_dec 0 z'); destruct (Rle_dec 0 z);
      destruct (Rcase_abs _); lra.
  - intros Hz. unfold Rmax, Rabs. destruct (Rle_dec 0 z'); destruct (Rle_dec 0 z);
      destruct (Rle_dec 0 (z + R)); destruct (Rcase_abs _); lra.
Qed.
