(* Softmax at inverse temperature beta over a finite list of scores, the
   average-hard weights (uniform on the maximising set) and their total
   variation distance; Lemma GT (proofs/lemma-gt.md) and its corollary.
   Scores are a list: a position is an element, repeated scores are repeated
   elements, and every weight is a function of the score alone. *)
From Coq Require Import Reals Lra Lia List.
Import ListNotations.
Open Scope R_scope.

Fixpoint sumR (l : list R) : R :=
  match l with
  | [] => 0
  | x :: t => x + sumR t
  end.

Definition is_max (mx : R) (l : list R) : Prop :=
  In mx l /\ Forall (fun s => s <= mx) l.

Definition is_mx (mx s : R) : bool := if Req_EM_T s mx then true else false.

(* k: how many positions attain the maximum *)
Definition count_max (mx : R) (l : list R) : nat := length (filter (is_mx mx) l).

Definition partition (beta : R) (l : list R) : R := sumR (map (fun s => exp (beta * s)) l).

Definition soft (beta : R) (l : list R) (s : R) : R := exp (beta * s) / partition beta l.

Definition hard (mx : R) (k : nat) (s : R) : R := if Req_EM_T s mx then / INR k else 0.

Definition tv (beta mx : R) (l : list R) : R :=
  / 2 * sumR (map (fun s => Rabs (soft beta l s - hard mx (count_max mx l) s)) l).

(* The scores below the maximum, weighted relative to it:
   X = sum over j outside M of e^(-beta (max - s_j)). *)
Definition below (beta mx : R) (l : list R) : R :=
  sumR (map (fun s => if Req_EM_T s mx then 0 else exp (beta * (s - mx))) l).

(* field's side conditions (denominators different from 0), each shown
   positive; used by the other files *)
Ltac nonzero := repeat split; try (apply Rgt_not_eq; nra); try lra.

(* ---- small facts ---- *)

Lemma sumR_app : forall a b, sumR (a ++ b) = sumR a + sumR b.
Proof. induction a; intros; simpl; [lra | rewrite IHa; lra]. Qed.

(* sums of a function over a list of positions, whatever a position is *)
Lemma sumR_map_plus : forall {A : Type} (f g : A -> R) l,
  sumR (map (fun x => f x + g x) l) = sumR (map f l) + sumR (map g l).
Proof. intros A f g l; induction l; simpl; [ring | rewrite IHl; ring]. Qed.

Lemma sumR_map_scale : forall {A : Type} c (f : A -> R) l,
  sumR (map (fun x => c * f x) l) = c * sumR (map f l).
Proof. intros A c f l; induction l; simpl; [ring | rewrite IHl; ring]. Qed.

Lemma sumR_map_le : forall {A : Type} (f g : A -> R) l,
  (forall x, In x l -> f x <= g x) -> sumR (map f l) <= sumR (map g l).
Proof.
  intros A f g l H; induction l as [|x t IH]; simpl; [lra|].
  assert (f x <= g x) by (apply H; left; reflexivity).
  assert (sumR (map f t) <= sumR (map g t)) by (apply IH; intros y Hy; apply H; right; exact Hy).
  lra.
Qed.

Lemma count_max_cons : forall mx s t,
  count_max mx (s :: t) = ((if Req_EM_T s mx then 1 else 0) + count_max mx t)%nat.
Proof.
  intros. unfold count_max, is_mx. simpl. destruct (Req_EM_T s mx); reflexivity.
Qed.

Lemma count_max_pos : forall mx l, In mx l -> (1 <= count_max mx l)%nat.
Proof.
  intros mx l; induction l as [|s t IH]; intros H; [destruct H|].
  rewrite count_max_cons. destruct H as [-> | H].
  - destruct (Req_EM_T mx mx); [lia | congruence].
  - specialize (IH H). destruct (Req_EM_T s mx); lia.
Qed.

Lemma count_max_le_length : forall mx l, (count_max mx l <= length l)%nat.
Proof.
  intros mx l; induction l as [|s t IH]; [unfold count_max; simpl; lia|].
  rewrite count_max_cons. simpl. destruct (Req_EM_T s mx); lia.
Qed.

Lemma below_nonneg : forall beta mx l, 0 <= below beta mx l.
Proof.
  intros beta mx l; induction l as [|s t IH]; unfold below in *; simpl; [lra|].
  destruct (Req_EM_T s mx); [lra|]. pose proof (exp_pos (beta * (s - mx))). lra.
Qed.

(* The partition function divided by e^(beta max) is k + X. *)
Lemma partition_split : forall beta mx l,
  partition beta l = exp (beta * mx) * (INR (count_max mx l) + below beta mx l).
Proof.
  intros beta mx l; induction l as [|s t IH].
  - unfold partition, below, count_max. simpl. ring.
  - unfold partition, below in *. simpl. rewrite IH, count_max_cons.
    destruct (Req_EM_T s mx) as [-> | Hne].
    + rewrite plus_INR. simpl. ring.
    + simpl. replace (exp (beta * s)) with (exp (beta * mx) * exp (beta * (s - mx))).
      * ring.
      * rewrite <- exp_plus. f_equal. ring.
Qed.

(* ---- the identity TV = X / (k + X) ---- *)

(* Each term of the TV sum, over any sublist t of the scores, with k and X
   those of the whole list. *)
Lemma tv_terms : forall beta mx K Y t,
  0 < K -> 0 <= Y ->
  sumR (map (fun s => Rabs (exp (beta * (s - mx)) / (K + Y)
                            - (if Req_EM_T s mx then / K else 0))) t)
  = INR (count_max mx t) * (/ K - / (K + Y)) + below beta mx t / (K + Y).
Proof.
  intros beta mx K Y t HK HY; induction t as [|s t IH].
  - unfold below, count_max. simpl. field. lra.
  - simpl. rewrite IH, count_max_cons. unfold below. simpl.
    destruct (Req_EM_T s mx) as [-> | Hne].
    + replace (mx - mx) with 0 by ring. rewrite Rmult_0_r, exp_0.
      rewrite Rabs_left1.
      * rewrite plus_INR. simpl. field. lra.
      * assert (/ (K + Y) <= / K) by (apply Rinv_le_contravar; lra).
        unfold Rdiv. lra.
    + rewrite Rminus_0_r, Rabs_right.
      * simpl. field. lra.
      * apply Rle_ge. unfold Rdiv. apply Rmult_le_pos.
        -- left. apply exp_pos.
        -- left. apply Rinv_0_lt_compat. lra.
Qed.

Theorem tv_below_identity : forall beta mx l,
  is_max mx l ->
  tv beta mx l = below beta mx l / (INR (count_max mx l) + below beta mx l).
Proof.
  intros beta mx l [Hin _].
  set (K := INR (count_max mx l)). set (Y := below beta mx l).
  assert (HK : 0 < K) by (apply lt_0_INR; pose proof (count_max_pos mx l Hin); lia).
  assert (HY : 0 <= Y) by apply below_nonneg.
  unfold tv.
  replace (map (fun s => Rabs (soft beta l s - hard mx (count_max mx l) s)) l)
    with (map (fun s => Rabs (exp (beta * (s - mx)) / (K + Y)
                              - (if Req_EM_T s mx then / K else 0))) l).
  - rewrite tv_terms by assumption. fold K Y. field. lra.
  - apply map_ext. intros s. f_equal. unfold soft, hard.
    rewrite (partition_split beta mx l). fold K Y. f_equal.
    replace (beta * s) with (beta * mx + beta * (s - mx)) by ring.
    rewrite exp_plus. field. split; [lra | apply Rgt_not_eq, exp_pos].
Qed.

(* ---- Lemma GT ---- *)

Lemma exp_le_of_le : forall a b, a <= b -> exp a <= exp b.
Proof.
  intros a b H. destruct (Rle_lt_or_eq_dec _ _ H) as [Hlt | ->].
  - left. apply exp_increasing. exact Hlt.
  - right. reflexivity.
Qed.

Lemma frac_mono : forall k x y, 0 < k -> 0 <= x <= y -> x / (k + x) <= y / (k + y).
Proof.
  intros k x y Hk [Hx Hxy].
  apply (Rmult_le_reg_r ((k + x) * (k + y))). { apply Rmult_lt_0_compat; lra. }
  replace (x / (k + x) * ((k + x) * (k + y))) with (x * (k + y)) by (field; lra).
  replace (y / (k + y) * ((k + x) * (k + y))) with (y * (k + x)) by (field; lra).
  nra.
Qed.

Lemma frac_mono_k : forall k k' x, 0 < k' <= k -> 0 <= x -> x / (k + x) <= x / (k' + x).
Proof.
  intros k k' x [Hk' Hk] Hx. unfold Rdiv. apply Rmult_le_compat_l; [lra|].
  apply Rinv_le_contravar; lra.
Qed.

(* Every non-maximal score is at least gamma below the maximum. *)
Definition gap_at_least (gamma mx : R) (l : list R) : Prop :=
  Forall (fun s => s = mx \/ s <= mx - gamma) l.

Lemma below_bound : forall beta gamma mx l,
  0 <= beta -> gap_at_least gamma mx l ->
  below beta mx l + INR (count_max mx l) * exp (- (beta * gamma))
    <= INR (length l) * exp (- (beta * gamma)).
Proof.
  intros beta gamma mx l Hb Hg; induction l as [|s t IH].
  - unfold below, count_max. simpl. lra.
  - inversion Hg as [|? ? Hs Ht]; subst. specialize (IH Ht).
    unfold below in *. rewrite count_max_cons. cbn [length map sumR]. rewrite S_INR.
    destruct (Req_EM_T s mx) as [-> | Hne].
    + rewrite plus_INR. change (INR 1) with 1. lra.
    + cbn [Nat.add]. destruct Hs as [Hs|Hs]; [contradiction|].
      assert (exp (beta * (s - mx)) <= exp (- (beta * gamma))).
      { apply exp_le_of_le. nra. }
      lra.
Qed.

Lemma count_at_least_one : forall mx l, is_max mx l -> 1 <= INR (count_max mx l).
Proof.
  intros mx l [Hin _]. pose proof (le_INR _ _ (count_max_pos mx l Hin)) as H.
  simpl in H. exact H.
Qed.

(* Lemma GT with k (the issue's form): N allowed positions, k of them
   maximal, every other score at least gamma below the maximum. *)
Theorem lemma_gt_k : forall beta gamma mx l (N : nat),
  0 <= beta -> is_max mx l -> gap_at_least gamma mx l -> (length l <= N)%nat ->
  let k := INR (count_max mx l) in
  let E := exp (- (beta * gamma)) in
  tv beta mx l <= (INR N - k) * E / (k + (INR N - k) * E).
Proof.
  intros beta gamma mx l N Hb Hm Hg HN k E.
  rewrite tv_below_identity by assumption. fold k.
  assert (HE : 0 < E) by apply exp_pos.
  assert (HK : 1 <= k) by (apply count_at_least_one; exact Hm).
  assert (HX : 0 <= below beta mx l) by apply below_nonneg.
  pose proof (below_bound beta gamma mx l Hb Hg) as HB. fold k E in HB.
  assert (INR (length l) * E <= INR N * E)
    by (apply Rmult_le_compat_r; [lra | apply le_INR; exact HN]).
  apply frac_mono; lra.
Qed.

(* Lemma GT as the code uses it (proofs/lemma-gt.md, "Claim"). *)
Theorem lemma_gt : forall beta gamma mx l (N : nat),
  0 <= beta -> is_max mx l -> gap_at_least gamma mx l -> (length l <= N)%nat ->
  let E := exp (- (beta * gamma)) in
  tv beta mx l <= (INR N - 1) * E / (1 + (INR N - 1) * E).
Proof.
  intros beta gamma mx l N Hb Hm Hg HN E.
  rewrite tv_below_identity by assumption.
  set (k := INR (count_max mx l)). set (X := below beta mx l).
  assert (HE : 0 < E) by apply exp_pos.
  assert (HK : 1 <= k) by (apply count_at_least_one; exact Hm).
  assert (HX : 0 <= X) by apply below_nonneg.
  pose proof (below_bound beta gamma mx l Hb Hg) as HB. fold k E X in HB.
  assert (INR (length l) * E <= INR N * E)
    by (apply Rmult_le_compat_r; [lra | apply le_INR; exact HN]).
  assert (k * E >= 1 * E) by (apply Rle_ge, Rmult_le_compat_r; lra).
  eapply Rle_trans. { apply (frac_mono_k k 1 X); lra. }
  apply frac_mono; lra.
Qed.

Lemma frac_le_eps : forall y eps, 0 <= y -> 0 < eps < 1 -> y * (1 - eps) <= eps ->
  y / (1 + y) <= eps.
Proof.
  intros y eps Hy He H.
  apply (Rmult_le_reg_r (1 + y)); [lra|].
  replace (y / (1 + y) * (1 + y)) with y by (field; lra). lra.
Qed.

(* The corollary: beta >= ln((N-1)(1-eps)/eps)/gamma, or that quotient's
   logarithm <= 0 and any beta >= 0, gives TV <= eps. *)
Theorem lemma_gt_beta : forall beta gamma eps mx l (N : nat),
  0 < gamma -> 0 < eps < 1 -> (1 <= N)%nat -> 0 <= beta ->
  is_max mx l -> gap_at_least gamma mx l -> (length l <= N)%nat ->
  let A := (INR N - 1) * (1 - eps) / eps in
  (A <= 1 \/ ln A / gamma <= beta) ->
  tv beta mx l <= eps.
Proof.
  intros beta gamma eps mx l N Hg He HN1 Hb Hm Hgap HN A Hbeta.
  eapply Rle_trans. { apply (lemma_gt beta gamma mx l N); assumption. }
  set (E := exp (- (beta * gamma))).
  assert (HE : 0 < E) by apply exp_pos.
  assert (HN' : 1 <= INR N) by (pose proof (le_INR _ _ HN1) as H; simpl in H; exact H).
  apply frac_le_eps; [nra | exact He |].
  assert (HA : A * E <= 1).
  { destruct Hbeta as [HA1 | Hln].
    - assert (E <= 1).
      { unfold E. rewrite <- exp_0. apply exp_le_of_le. nra. }
      assert (0 <= A) by (unfold A; unfold Rdiv; apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; lra]).
      nra.
    - destruct (Rle_lt_dec A 0) as [HA0 | HA0]; [nra|].
      assert (ln A <= beta * gamma).
      { apply (Rmult_le_compat_r gamma) in Hln; [|lra].
        replace (ln A / gamma * gamma) with (ln A) in Hln by (field; lra). lra. }
      assert (HEA : E <= / A).
      { unfold E. rewrite <- (exp_ln A HA0), <- exp_Ropp. apply exp_le_of_le. lra. }
      apply (Rmult_le_compat_l A) in HEA; [|lra].
      rewrite Rinv_r in HEA; lra. }
  unfold A in HA.
  replace ((INR N - 1) * E * (1 - eps)) with ((INR N - 1) * (1 - eps) / eps * E * eps)
    by (field; lra).
  apply (Rmult_le_compat_r eps) in HA; lra.
Qed.

(* Counting heads: scores all equal, soft and hard weights agree at every
   beta (proofs/counting-construction.md). *)
Theorem uniform_scores_exact : forall beta mx l,
  l <> [] -> Forall (fun s => s = mx) l -> tv beta mx l = 0.
Proof.
  intros beta mx l Hne Hall.
  assert (Hm : is_max mx l).
  { split.
    - destruct l as [|s t]; [congruence|]. inversion Hall; subst. left. reflexivity.
    - eapply Forall_impl; [|exact Hall]. intros s ->. lra. }
  assert (Hb : below beta mx l = 0).
  { clear Hne Hm. induction l as [|s t IH]; unfold below in *; simpl; [reflexivity|].
    inversion Hall; subst. rewrite IH by assumption.
    destruct (Req_EM_T mx mx); [lra | congruence]. }
  rewrite tv_below_identity by exact Hm. rewrite Hb. unfold Rdiv. ring.
Qed.
