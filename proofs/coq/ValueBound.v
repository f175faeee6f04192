(* The perturbation argument's value-set bounds Q_r, K_r (proofs/perturbation.md,
   "One layer", 1): for one row w of W_Q or W_K, every x = d + P with d in the
   layer's finite set and each positional coordinate P_c in [lo_c, hi_c]
   has |w . x| <= max over d of max(|w.d + lo|, |w.d + hi|), where
   lo = sum_c min(w_c lo_c, w_c hi_c) and hi = sum_c max(w_c lo_c, w_c hi_c).
   That is what `largest` computes in src/check/check_perturbation.cpp and
   the engine's perturbation bounds (non-feature coordinates have
   lo_c = hi_c = 0). A coordinate is (w_c, d_c, p_c, lo_c, hi_c). *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

Record coord := { w : R; d : R; p : R; lo : R; hi : R }.

Definition in_box (c : coord) : Prop := lo c <= p c <= hi c.

Definition wd (cs : list coord) : R := sumR (map (fun c => w c * d c) cs).
Definition wp (cs : list coord) : R := sumR (map (fun c => w c * p c) cs).
Definition wx (cs : list coord) : R := sumR (map (fun c => w c * (d c + p c)) cs).
Definition box_lo (cs : list coord) : R :=
  sumR (map (fun c => Rmin (w c * lo c) (w c * hi c)) cs).
Definition box_hi (cs : list coord) : R :=
  sumR (map (fun c => Rmax (w c * lo c) (w c * hi c)) cs).

Lemma coord_in_box : forall c, in_box c ->
  Rmin (w c * lo c) (w c * hi c) <= w c * p c <= Rmax (w c * lo c) (w c * hi c).
Proof.
  intros c [Hl Hh].
  destruct (Rle_dec 0 (w c)) as [Hw|Hw].
  - assert (w c * lo c <= w c * p c) by (apply Rmult_le_compat_l; lra).
    assert (w c * p c <= w c * hi c) by (apply Rmult_le_compat_l; lra).
    split; [apply Rle_trans with (w c * lo c); [apply Rmin_l|lra]
           |apply Rle_trans with (w c * hi c); [lra|apply Rmax_r]].
  - assert (w c * hi c <= w c * p c) by (apply Rmult_le_compat_neg_l; lra).
    assert (w c * p c <= w c * lo c) by (apply Rmult_le_compat_neg_l; lra).
    split; [apply Rle_trans with (w c * hi c); [apply Rmin_r|lra]
           |apply Rle_trans with (w c * lo c); [lra|apply Rmax_l]].
Qed.

(* The positional part of w . x lies in [box_lo, box_hi]. *)
Theorem box_sum : forall cs, Forall in_box cs -> box_lo cs <= wp cs <= box_hi cs.
Proof.
  intros cs H; induction cs as [|c t IH].
  - unfold box_lo, box_hi, wp; simpl; lra.
  - inversion H as [|? ? Hc Ht]; subst. specialize (IH Ht).
    pose proof (coord_in_box c Hc).
    unfold box_lo, box_hi, wp in *; cbn [map sumR]; lra.
Qed.

Lemma wx_split : forall cs, wx cs = wd cs + wp cs.
Proof.
  induction cs as [|c t IH]; unfold wx, wd, wp in *; cbn [map sumR]; [lra|].
  rewrite IH; ring.
Qed.

(* |v + s| on an interval of s is at most its value at one end. *)
Lemma abs_shift_in_interval : forall v s a b, a <= s <= b ->
  Rabs (v + s) <= Rmax (Rabs (v + a)) (Rabs (v + b)).
Proof.
  intros v s a b [Ha Hb].
  apply Rabs_le; split.
  - apply Rle_trans with (- Rabs (v + a)).
    + apply Ropp_le_contravar, Rmax_l.
    + pose proof (Rle_abs (- (v + a))) as H; rewrite Rabs_Ropp in H. lra.
  - apply Rle_trans with (Rabs (v + b)); [|apply Rmax_r].
    pose proof (Rle_abs (v + b)); lra.
Qed.

(* One element d of the set: the bound the code takes the maximum of. *)
Definition element_bound (cs : list coord) : R :=
  Rmax (Rabs (wd cs + box_lo cs)) (Rabs (wd cs + box_hi cs)).

Theorem row_magnitude : forall cs, Forall in_box cs -> Rabs (wx cs) <= element_bound cs.
Proof.
  intros cs H. rewrite wx_split. unfold element_bound.
  apply abs_shift_in_interval, box_sum, H.
Qed.

(* Q_r: an upper bound of every element's bound (the code's maximum over
   the set and BOS's) bounds |(W x)_r| for every x = d + P of the layer. *)
Theorem value_set_magnitude : forall (Qr : R) (xs : list (list coord)),
  (forall cs, In cs xs -> Forall in_box cs /\ element_bound cs <= Qr) ->
  forall cs, In cs xs -> Rabs (wx cs) <= Qr.
Proof.
  intros Qr xs H cs Hin. destruct (H cs Hin) as [Hbox Hle].
  eapply Rle_trans; [apply row_magnitude, Hbox|exact Hle].
Qed.
