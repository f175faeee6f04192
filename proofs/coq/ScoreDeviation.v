(* The perturbation argument's score deviation (proofs/perturbation.md,
   "One layer", 1): with |q'_r - q_r| <= a_r, |k'_r - k_r| <= b_r,
   |q_r| <= Q_r and |k_r| <= K_r on every coordinate r,
   |q'.k' - q.k| <= sum_r a_r K_r + Q_r b_r + a_r b_r = e.
   A coordinate is (q_r, q'_r, k_r, k'_r, a_r, b_r, Q_r, K_r). *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

Record coord := { q : R; q' : R; k : R; k' : R; a : R; b : R; Q : R; K : R }.

Definition within (c : coord) : Prop :=
  Rabs (q' c - q c) <= a c /\ Rabs (k' c - k c) <= b c /\ Rabs (q c) <= Q c /\ Rabs (k c) <= K c.

Definition dot (f g : coord -> R) (cs : list coord) : R := sumR (map (fun c => f c * g c) cs).
Definition deviation (cs : list coord) : R :=
  sumR (map (fun c => a c * K c + Q c * b c + a c * b c) cs).

Lemma coord_deviation : forall c, within c ->
  Rabs (q' c * k' c - q c * k c) <= a c * K c + Q c * b c + a c * b c.
Proof.
  intros c [Ha [Hb [HQ HK]]].
  replace (q' c * k' c - q c * k c)
    with ((q' c - q c) * k c + q c * (k' c - k c) + (q' c - q c) * (k' c - k c)) by ring.
  eapply Rle_trans; [apply Rabs_triang|].
  eapply Rle_trans; [apply Rplus_le_compat_r, Rabs_triang|].
  rewrite !Rabs_mult.
  pose proof (Rabs_pos (q' c - q c)). pose proof (Rabs_pos (k' c - k c)).
  pose proof (Rabs_pos (q c)). pose proof (Rabs_pos (k c)).
  assert (Rabs (q' c - q c) * Rabs (k c) <= a c * K c) by (apply Rmult_le_compat; lra).
  assert (Rabs (q c) * Rabs (k' c - k c) <= Q c * b c) by (apply Rmult_le_compat; lra).
  assert (Rabs (q' c - q c) * Rabs (k' c - k c) <= a c * b c) by (apply Rmult_le_compat; lra).
  lra.
Qed.

Theorem score_deviation : forall cs, Forall within cs ->
  Rabs (dot q' k' cs - dot q k cs) <= deviation cs.
Proof.
  intros cs H; induction cs as [|c t IH].
  - unfold dot, deviation. simpl. replace (0 - 0) with 0 by ring. rewrite Rabs_R0. lra.
  - inversion H as [|? ? Hc Ht]; subst. specialize (IH Ht).
    unfold dot, deviation in *. cbn [map sumR].
    replace (q' c * k' c + sumR (map (fun c0 => q' c0 * k' c0) t) -
             (q c * k c + sumR (map (fun c0 => q c0 * k c0) t)))
      with ((q' c * k' c - q c * k c) +
            (sumR (map (fun c0 => q' c0 * k' c0) t) - sumR (map (fun c0 => q c0 * k c0) t)))
      by ring.
    eapply Rle_trans; [apply Rabs_triang|].
    pose proof (coord_deviation c Hc). lra.
Qed.
