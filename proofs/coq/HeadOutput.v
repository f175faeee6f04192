(* The head's output moves by at most TV times the span of the values
   (proofs/lemma-gt.md, last paragraph of the proof; proofs/certificate.md,
   "The head's output"; proofs/perturbation.md, step 3): for two weight
   vectors p and h of equal total mass over the same positions and one
   coordinate c of the values with vmin <= v_j <= vmax,
   |sum_j p_j v_j - sum_j h_j v_j| <= TV(p, h) (vmax - vmin),
   TV(p, h) = 1/2 sum_j |p_j - h_j|. A position is a triple (p_j, h_j, v_j). *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

Definition pw (x : R * R * R) : R := fst (fst x).
Definition hw (x : R * R * R) : R := snd (fst x).
Definition val (x : R * R * R) : R := snd x.

Definition sum_of (f : R * R * R -> R) (l : list (R * R * R)) : R := sumR (map f l).

Definition tv_pair (l : list (R * R * R)) : R := / 2 * sum_of (fun x => Rabs (pw x - hw x)) l.

(* Softmax.v's sum lemmas, in this file's notation *)
Lemma sum_of_plus : forall f g l, sum_of (fun x => f x + g x) l = sum_of f l + sum_of g l.
Proof. intros. apply sumR_map_plus. Qed.

Lemma sum_of_scale : forall c f l, sum_of (fun x => c * f x) l = c * sum_of f l.
Proof. intros. apply sumR_map_scale. Qed.

Lemma sum_of_le : forall f g l, (forall x, In x l -> f x <= g x) -> sum_of f l <= sum_of g l.
Proof. intros. apply sumR_map_le. assumption. Qed.

Lemma sum_of_ext : forall f g l, (forall x, f x = g x) -> sum_of f l = sum_of g l.
Proof. intros f g l H. unfold sum_of. f_equal. apply map_ext. exact H. Qed.

(* With equal total mass, the mass of p above h equals that of h above p,
   and each is TV. *)
Lemma positive_part_is_tv : forall l, sum_of pw l = sum_of hw l ->
  sum_of (fun x => Rmax 0 (pw x - hw x)) l = tv_pair l.
Proof.
  intros l Heq. unfold tv_pair.
  assert (Hsplit : forall x, Rabs (pw x - hw x)
                     = 2 * Rmax 0 (pw x - hw x) + (hw x - pw x)).
  { intros x. unfold Rmax, Rabs. destruct (Rcase_abs (pw x - hw x));
      destruct (Rle_dec 0 (pw x - hw x)); lra. }
  rewrite (sum_of_ext _ _ l Hsplit), sum_of_plus, sum_of_scale.
  rewrite (sum_of_ext (fun x => hw x - pw x) (fun x => hw x + (-1) * pw x) l) by (intros; ring).
  rewrite sum_of_plus, sum_of_scale, Heq. field.
Qed.

Theorem head_output_moves : forall l vmin vmax,
  sum_of pw l = sum_of hw l ->
  Forall (fun x => vmin <= val x <= vmax) l ->
  Rabs (sum_of (fun x => pw x * val x) l - sum_of (fun x => hw x * val x) l)
    <= tv_pair l * (vmax - vmin).
Proof.
  intros l vmin vmax Heq Hv.
  rewrite Forall_forall in Hv.
  (* the difference is sum (p - h)(v - vmin), as sum (p - h) = 0 *)
  assert (Hd : sum_of (fun x => pw x * val x) l - sum_of (fun x => hw x * val x) l
               = sum_of (fun x => (pw x - hw x) * (val x - vmin)) l).
  { rewrite (sum_of_ext (fun x => (pw x - hw x) * (val x - vmin))
               (fun x => pw x * val x + ((-1) * (hw x * val x) + (-vmin) * (pw x + (-1) * hw x))) l)
      by (intros; ring).
    rewrite !sum_of_plus, !sum_of_scale, sum_of_plus, sum_of_scale, Heq. ring. }
  assert (Hdm : sum_of (fun x => pw x * val x) l - sum_of (fun x => hw x * val x) l
                = - sum_of (fun x => (hw x - pw x) * (val x - vmin)) l).
  { rewrite Hd.
    replace (- sum_of (fun x => (hw x - pw x) * (val x - vmin)) l)
      with ((-1) * sum_of (fun x => (hw x - pw x) * (val x - vmin)) l) by ring.
    rewrite <- sum_of_scale. apply sum_of_ext. intros; ring. }
  assert (Htv_h : sum_of (fun x => Rmax 0 (hw x - pw x)) l = tv_pair l).
  { rewrite <- (positive_part_is_tv l Heq).
    (* mass of h above p = mass of p above h *)
    assert (Hs : forall x, Rmax 0 (hw x - pw x) = Rmax 0 (pw x - hw x) + (hw x - pw x)).
    { intros x. unfold Rmax. destruct (Rle_dec 0 (hw x - pw x)); destruct (Rle_dec 0 (pw x - hw x)); lra. }
    rewrite (sum_of_ext _ _ l Hs), sum_of_plus.
    rewrite (sum_of_ext (fun x => hw x - pw x) (fun x => hw x + (-1) * pw x) l) by (intros; ring).
    rewrite sum_of_plus, sum_of_scale, Heq. ring. }
  assert (Hup : sum_of (fun x => (pw x - hw x) * (val x - vmin)) l <= tv_pair l * (vmax - vmin)).
  { rewrite <- (positive_part_is_tv l Heq), Rmult_comm, <- sum_of_scale.
    apply sum_of_le. intros x Hin. specialize (Hv x Hin).
    unfold Rmax. destruct (Rle_dec 0 (pw x - hw x)); nra. }
  assert (Hlo : sum_of (fun x => (hw x - pw x) * (val x - vmin)) l <= tv_pair l * (vmax - vmin)).
  { rewrite <- Htv_h, Rmult_comm, <- sum_of_scale.
    apply sum_of_le. intros x Hin. specialize (Hv x Hin).
    unfold Rmax. destruct (Rle_dec 0 (hw x - pw x)); nra. }
  apply Rabs_le. split; [rewrite Hdm; lra | rewrite Hd; lra].
Qed.
