(* The perturbation argument's feed-forward step (proofs/perturbation.md,
   "One layer", 4): a sublayer x + W2 ReLU(W1 x + b1) + b2 whose input
   moves from the hard d to d + delta, |delta_j| <= r_j, moves output
   coordinate c by at most
     sum_j |A_cj| r_j + sum over kink units k of |W2_ck| dev_k,
   A = I + W2 D W1 with D the units active on the whole box. With
   R_k = sum_j |W1_kj| r_j and z_k = b1_k + sum_j W1_kj d_j, unit k is
   active when z_k - R_k >= 0, dead when z_k + R_k <= 0, a kink otherwise,
   and dev_k = max(0, z_k + R_k) when z_k < 0, else R_k. Indices run over
   0..n-1 (inputs and outputs, the residual's width) and 0..m-1 (units). *)
From Coq Require Import Reals Lra Lia List.
From TempcertProofs Require Import Softmax Layerwise.
Import ListNotations.
Open Scope R_scope.

Definition sum (n : nat) (f : nat -> R) : R := sumR (map f (seq 0 n)).

Lemma sumR_map_ext : forall {A : Type} (f g : A -> R) l,
  (forall x, In x l -> f x = g x) -> sumR (map f l) = sumR (map g l).
Proof.
  intros A f g l H; induction l as [|x t IH]; simpl; [lra|].
  rewrite (H x (or_introl eq_refl)), IH; [lra|]. intros y Hy. apply H. now right.
Qed.

Lemma sum_ext : forall n f g, (forall i, (i < n)%nat -> f i = g i) -> sum n f = sum n g.
Proof.
  intros n f g H. unfold sum. apply sumR_map_ext. intros i Hi.
  apply in_seq in Hi. apply H. lia.
Qed.

Lemma sum_plus : forall n f g, sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. intros. unfold sum. apply sumR_map_plus. Qed.

Lemma sum_scale : forall n c f, sum n (fun i => c * f i) = c * sum n f.
Proof. intros. unfold sum. apply sumR_map_scale. Qed.

Lemma sum_le : forall n f g, (forall i, (i < n)%nat -> f i <= g i) -> sum n f <= sum n g.
Proof.
  intros n f g H. unfold sum. apply sumR_map_le. intros i Hi.
  apply in_seq in Hi. apply H. lia.
Qed.

Lemma sum_abs : forall n f, Rabs (sum n f) <= sum n (fun i => Rabs (f i)).
Proof.
  intros n f. unfold sum. induction (seq 0 n) as [|x t IH]; simpl.
  - rewrite Rabs_R0. lra.
  - eapply Rle_trans; [apply Rabs_triang|]. lra.
Qed.

Lemma sum_exchange : forall n m (f : nat -> nat -> R),
  sum n (fun i => sum m (fun k => f i k)) = sum m (fun k => sum n (fun i => f i k)).
Proof.
  intros n m f. unfold sum. induction (seq 0 n) as [|x t IH]; simpl.
  - induction (seq 0 m) as [|y u IHu]; simpl; lra.
  - rewrite IH. rewrite <- sumR_map_plus. reflexivity.
Qed.

(* the Kronecker delta: sum_j [c = j] g_j = g_c for c < n *)
Lemma kronecker_zero : forall c g l, ~ In c l ->
  sumR (map (fun j => (if Nat.eq_dec c j then 1 else 0) * g j) l) = 0.
Proof.
  intros c g l; induction l as [|y u IH]; intros Hn; simpl; [reflexivity|].
  destruct (Nat.eq_dec c y) as [->|]; [exfalso; apply Hn; now left|].
  rewrite IH; [lra|]. intro H. apply Hn. now right.
Qed.

Lemma kronecker_list : forall c g l, In c l -> NoDup l ->
  sumR (map (fun j => (if Nat.eq_dec c j then 1 else 0) * g j) l) = g c.
Proof.
  intros c g l; induction l as [|x t IH]; intros Hin Hnd; [contradiction|]. simpl.
  inversion Hnd as [|? ? Hx Ht]; subst.
  destruct (Nat.eq_dec c x) as [->|Hne].
  - rewrite kronecker_zero by exact Hx. lra.
  - destruct Hin as [Hin|Hin]; [congruence|]. rewrite IH by assumption. lra.
Qed.

Lemma sum_kronecker : forall n c g, (c < n)%nat ->
  sum n (fun j => (if Nat.eq_dec c j then 1 else 0) * g j) = g c.
Proof.
  intros n c g Hc. apply kronecker_list; [apply in_seq; lia | apply seq_NoDup].
Qed.

Section Sublayer.

Variables (n m : nat) (W1 W2 : nat -> nat -> R) (b1 d delta r : nat -> R).

Definition z (k : nat) : R := b1 k + sum n (fun j => W1 k j * d j).
Definition z' (k : nat) : R := b1 k + sum n (fun j => W1 k j * (d j + delta j)).
Definition reach_k (k : nat) : R := sum n (fun j => Rabs (W1 k j) * r j).

Definition active (k : nat) : bool := if Rle_dec (reach_k k) (z k) then true else false.
Definition dead (k : nat) : bool := if Rle_dec (z k) (- reach_k k) then true else false.
Definition kink (k : nat) : bool := negb (active k) && negb (dead k).
Definition ind (b : bool) : R := if b then 1 else 0.
Definition dev (k : nat) : R := if Rlt_dec (z k) 0 then Rmax 0 (z k + reach_k k) else reach_k k.

(* the sublayer's output coordinate c, without b2 (which cancels) *)
Definition out (x : nat -> R) (zz : nat -> R) (c : nat) : R :=
  x c + sum m (fun k => W2 c k * Rmax 0 (zz k)).

Definition A (c j : nat) : R :=
  (if Nat.eq_dec c j then 1 else 0) + sum m (fun k => ind (active k) * W2 c k * W1 k j).

Lemma z_moves : forall k, z' k - z k = sum n (fun j => W1 k j * delta j).
Proof.
  intros k. unfold z', z.
  replace (sum n (fun j => W1 k j * (d j + delta j)))
    with (sum n (fun j => W1 k j * d j + W1 k j * delta j))
    by (apply sum_ext; intros; ring).
  rewrite sum_plus. ring.
Qed.

(* the input's move: within r, coordinate by coordinate *)
Definition within_r : Prop := forall j, (j < n)%nat -> Rabs (delta j) <= r j.

Lemma z_within : forall k, within_r -> Rabs (z' k - z k) <= reach_k k.
Proof.
  intros k delta_within. rewrite z_moves. eapply Rle_trans; [apply sum_abs|].
  apply sum_le. intros j Hj. rewrite Rabs_mult.
  apply Rmult_le_compat_l; [apply Rabs_pos | now apply delta_within].
Qed.

(* what a unit adds beyond its affine part: 0 unless it is a kink, and then
   at most dev k *)
Definition excess (k : nat) : R :=
  Rmax 0 (z' k) - Rmax 0 (z k) - ind (active k) * (z' k - z k).

Lemma excess_bound : forall k, within_r -> Rabs (excess k) <= ind (kink k) * dev k.
Proof.
  intros k Hr. pose proof (z_within k Hr) as Hw.
  assert (Hb : z k - reach_k k <= z' k <= z k + reach_k k)
    by (unfold Rabs in Hw; destruct (Rcase_abs (z' k - z k)); lra).
  unfold excess, kink, ind, active, dead, dev.
  destruct (Rle_dec (reach_k k) (z k)) as [Ha|Ha]; simpl.
  - rewrite Rmax_right by lra. rewrite Rmax_right by lra.
    replace (z' k - z k - 1 * (z' k - z k)) with 0 by ring. rewrite Rabs_R0. lra.
  - destruct (Rle_dec (z k) (- reach_k k)) as [Hd|Hd]; simpl.
    + rewrite Rmax_left by lra. rewrite Rmax_left by lra.
      replace (0 - 0 - 0 * (z' k - z k)) with 0 by ring. rewrite Rabs_R0. lra.
    + replace (Rmax 0 (z' k) - Rmax 0 (z k) - 0 * (z' k - z k))
        with (Rmax 0 (z' k) - Rmax 0 (z k)) by ring.
      destruct (relu_deviation (z k) (z' k) (reach_k k) Hw) as [H1 H2].
      destruct (Rlt_dec (z k) 0) as [Hn|Hn]; [specialize (H2 Hn); lra | lra].
Qed.

Lemma sum_minus : forall k f g, sum k (fun i => f i - g i) = sum k f - sum k g.
Proof.
  intros k f g.
  replace (sum k (fun i => f i - g i)) with (sum k (fun i => f i + (-1) * g i))
    by (apply sum_ext; intros; ring).
  rewrite sum_plus, sum_scale. ring.
Qed.

(* the affine part: sum_j A_cj delta_j is delta_c plus each active unit's
   share of its pre-activation's move *)
Lemma affine_part : forall c, (c < n)%nat ->
  sum n (fun j => A c j * delta j) =
  delta c + sum m (fun k => W2 c k * (ind (active k) * (z' k - z k))).
Proof.
  intros c Hc. unfold A.
  replace (sum n (fun j => ((if Nat.eq_dec c j then 1 else 0) +
                            sum m (fun k => ind (active k) * W2 c k * W1 k j)) * delta j))
    with (sum n (fun j => (if Nat.eq_dec c j then 1 else 0) * delta j) +
          sum n (fun j => sum m (fun k => ind (active k) * W2 c k * (W1 k j * delta j)))).
  2:{ rewrite <- sum_plus. apply sum_ext. intros j _.
      rewrite Rmult_plus_distr_r. f_equal.
      rewrite Rmult_comm, <- sum_scale. apply sum_ext. intros; ring. }
  rewrite sum_kronecker by exact Hc. f_equal.
  rewrite sum_exchange. apply sum_ext. intros k _.
  rewrite z_moves, sum_scale. ring.
Qed.

Theorem sublayer_deviation : forall c, (c < n)%nat -> within_r ->
  Rabs (out (fun j => d j + delta j) z' c - out d z c) <=
  sum n (fun j => Rabs (A c j) * r j) + sum m (fun k => ind (kink k) * (Rabs (W2 c k) * dev k)).
Proof.
  intros c Hc delta_within.
  assert (Hsplit : out (fun j => d j + delta j) z' c - out d z c =
                   sum n (fun j => A c j * delta j) + sum m (fun k => W2 c k * excess k)).
  { rewrite affine_part by exact Hc. unfold out.
    replace (d c + delta c + sum m (fun k => W2 c k * Rmax 0 (z' k)) -
             (d c + sum m (fun k => W2 c k * Rmax 0 (z k))))
      with (delta c + sum m (fun k => W2 c k * Rmax 0 (z' k) - W2 c k * Rmax 0 (z k)))
      by (rewrite sum_minus; ring).
    rewrite Rplus_assoc, <- sum_plus. f_equal. apply sum_ext. intros k _.
    unfold excess. ring. }
  rewrite Hsplit. eapply Rle_trans; [apply Rabs_triang|]. apply Rplus_le_compat.
  - eapply Rle_trans; [apply sum_abs|]. apply sum_le. intros j Hj.
    rewrite Rabs_mult. apply Rmult_le_compat_l; [apply Rabs_pos | now apply delta_within].
  - eapply Rle_trans; [apply sum_abs|]. apply sum_le. intros k _.
    rewrite Rabs_mult. pose proof (excess_bound k delta_within) as He.
    replace (ind (kink k) * (Rabs (W2 c k) * dev k)) with (Rabs (W2 c k) * (ind (kink k) * dev k))
      by ring.
    apply Rmult_le_compat_l; [apply Rabs_pos | exact He].
Qed.

End Sublayer.
