(* The perturbation argument's spread competitors (proofs/perturbation.md,
   "One layer", 2, "Spread competitors"): keys fall into k classes, and
   within a class the gaps of distinct positions differ by multiples of
   |c| >= s > 0, so sorted they are at least s apart, the first at least
   gamma. Then sum_j e^(-beta d_j) <= k e^(-beta gamma) / (1 - e^(-beta s)):
   spread_sum from sorted, spaced gaps; spread_positions from the classes
   as the code has them (per class G and c, gap G + j c at each of its
   distinct positions j <= n), sorting them itself. *)
From Coq Require Import Reals Lra Lia List Sorting.Permutation Sorting.Sorted Sorting.Mergesort.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* one class: its gaps in increasing order, the first at least lo, each
   next at least s above the one before *)
Fixpoint spaced (s lo : R) (l : list R) : Prop :=
  match l with
  | [] => True
  | d :: t => lo <= d /\ spaced s (d + s) t
  end.

Definition weight_sum (beta : R) (l : list R) : R := sumR (map (fun d => exp (- (beta * d))) l).

Lemma class_sum : forall beta s l lo, 0 < beta -> 0 < s -> spaced s lo l ->
  weight_sum beta l <= exp (- (beta * lo)) / (1 - exp (- (beta * s))).
Proof.
  intros beta s l; induction l as [|d t IH]; intros lo Hb Hs Hsp.
  - unfold weight_sum. simpl.
    assert (Hq : exp (- (beta * s)) < 1) by (rewrite <- exp_0; apply exp_increasing; nra).
    unfold Rdiv. apply Rmult_le_pos; [left; apply exp_pos | left; apply Rinv_0_lt_compat; lra].
  - destruct Hsp as [Hd Ht]. specialize (IH (d + s) Hb Hs Ht).
    unfold weight_sum in *. cbn [map sumR].
    set (q := exp (- (beta * s))). set (ed := exp (- (beta * d))).
    assert (Hq : q < 1) by (unfold q; rewrite <- exp_0; apply exp_increasing; nra).
    assert (Hq0 : 0 < q) by apply exp_pos.
    assert (Hed : 0 < ed) by apply exp_pos.
    assert (Hnext : exp (- (beta * (d + s))) = ed * q).
    { unfold ed, q. rewrite <- exp_plus. f_equal. ring. }
    rewrite Hnext in IH. fold q in IH.
    assert (Hlo : ed <= exp (- (beta * lo))) by (unfold ed; apply exp_le_of_le; nra).
    apply Rle_trans with (ed / (1 - q)).
    + apply (Rplus_le_compat_l ed) in IH.
      replace (ed + ed * q / (1 - q)) with (ed / (1 - q)) in IH by (field; lra).
      exact IH.
    + unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | exact Hlo].
Qed.

Theorem spread_sum : forall beta s gamma classes, 0 < beta -> 0 < s ->
  Forall (spaced s gamma) classes ->
  weight_sum beta (concat classes)
    <= INR (length classes) * (exp (- (beta * gamma)) / (1 - exp (- (beta * s)))).
Proof.
  intros beta s gamma classes Hb Hs Hc; induction classes as [|c cs IH].
  - unfold weight_sum. simpl. lra.
  - inversion Hc as [|? ? Hc1 Hcs]; subst. specialize (IH Hcs).
    cbn [concat length]. rewrite S_INR.
    unfold weight_sum in *. rewrite map_app, sumR_app.
    pose proof (class_sum beta s c gamma Hb Hs Hc1) as H1. unfold weight_sum in H1.
    lra.
Qed.

(* ---- a class's gaps: an arithmetic progression over distinct positions ---- *)

Lemma sumR_perm : forall l l', Permutation l l' -> sumR l = sumR l'.
Proof.
  intros l l' H; induction H; simpl; try lra.
Qed.

Lemma weight_sum_perm : forall beta l l', Permutation l l' -> weight_sum beta l = weight_sum beta l'.
Proof. intros. unfold weight_sum. apply sumR_perm, Permutation_map. assumption. Qed.

Lemma sorted_le : forall l, LocallySorted (fun x y => is_true (Nat.leb x y)) l ->
  StronglySorted le l.
Proof.
  intros l H; induction H as [|a|a b t Hbt IH Hab].
  - constructor.
  - constructor; constructor.
  - apply Nat.leb_le in Hab. constructor; [exact IH|].
    inversion IH as [|? ? _ Hall]; subst. constructor; [exact Hab|].
    rewrite Forall_forall in *. intros x Hx. specialize (Hall x Hx). lia.
Qed.

(* gaps base + t a at distinct naturals t, in increasing order of t, are
   spaced by a >= s *)
Lemma progression_spaced : forall s a base l lo, 0 < s <= a ->
  StronglySorted le l -> NoDup l -> (forall t, In t l -> lo <= base + INR t * a) ->
  spaced s lo (map (fun t => base + INR t * a) l).
Proof.
  intros s a base l; induction l as [|t rest IH]; intros lo Hs Hsort Hnd Hlo; simpl; [exact I|].
  inversion Hsort as [|? ? Hsr Hall]; subst. inversion Hnd as [|? ? Hnin Hndr]; subst.
  split; [apply Hlo; now left|].
  apply IH; try assumption. intros u Hu.
  assert (Htu : (t <= u)%nat) by (rewrite Forall_forall in Hall; now apply Hall).
  assert (Hne : t <> u) by (intros ->; contradiction).
  assert (Hlt : INR t + 1 <= INR u) by (rewrite <- S_INR; apply le_INR; lia).
  nra.
Qed.

(* One class: gaps base + t a (a >= s > 0) at distinct naturals t, each at
   least gamma, weigh at most e^(-beta gamma) / (1 - e^(-beta s)). *)
Theorem progression_sum : forall beta s a base gamma ts, 0 < beta -> 0 < s <= a ->
  NoDup ts -> (forall t, In t ts -> gamma <= base + INR t * a) ->
  weight_sum beta (map (fun t => base + INR t * a) ts)
    <= exp (- (beta * gamma)) / (1 - exp (- (beta * s))).
Proof.
  intros beta s a base gamma ts Hb Hs Hnd Hg.
  pose proof (NatSort.Permuted_sort ts) as Hp.
  rewrite (weight_sum_perm beta _ _ (Permutation_map (fun t => base + INR t * a) Hp)).
  apply class_sum; [exact Hb | lra|].
  apply progression_spaced; [lra | | |].
  - apply sorted_le, NatSort.LocallySorted_sort.
  - exact (Permutation_NoDup Hp Hnd).
  - intros t Ht. apply Hg. apply (Permutation_in t (Permutation_sym Hp) Ht).
Qed.

(* The same class read by position, as the code sees it: key position j
   (1..n) of a class has gap G + j c, where c is minus the score step per
   position (every key of a class shares G and c; |c| >= s). Positions
   distinct, so a decreasing progression (c < 0) is the increasing one of
   n - j. *)
Lemma nodup_flip : forall n js, NoDup js -> Forall (fun j => (j <= n)%nat) js ->
  NoDup (map (fun j => (n - j)%nat) js).
Proof.
  intros n js Hnd Hle; induction js as [|j t IH]; simpl; [constructor|].
  inversion Hnd as [|? ? Hnin Hndt]; subst. inversion Hle as [|? ? Hj Hlt]; subst.
  constructor; [|now apply IH].
  intros Hin. apply in_map_iff in Hin. destruct Hin as [u [Hu Hut]].
  rewrite Forall_forall in Hlt. specialize (Hlt u Hut).
  assert (u = j) by lia. subst. contradiction.
Qed.

Theorem class_positions_sum : forall beta s gamma n G c js, 0 < beta -> 0 < s <= Rabs c ->
  NoDup js -> Forall (fun j => (j <= n)%nat) js -> Forall (fun j => gamma <= G + INR j * c) js ->
  weight_sum beta (map (fun j => G + INR j * c) js)
    <= exp (- (beta * gamma)) / (1 - exp (- (beta * s))).
Proof.
  intros beta s gamma n G c js Hb Hs Hnd Hle Hg. rewrite Forall_forall in Hg.
  destruct (Rle_or_lt 0 c) as [Hc|Hc].
  - rewrite Rabs_right in Hs by lra.
    apply (progression_sum beta s c G gamma js Hb Hs Hnd). exact Hg.
  - rewrite Rabs_left in Hs by lra.
    replace (map (fun j => G + INR j * c) js)
      with (map (fun t => (G + INR n * c) + INR t * (- c)) (map (fun j => (n - j)%nat) js)).
    + apply progression_sum; [exact Hb | lra | now apply nodup_flip |].
      intros t Ht. apply in_map_iff in Ht. destruct Ht as [j [<- Hj]].
      rewrite Forall_forall in Hle. rewrite minus_INR by (now apply Hle).
      specialize (Hg j Hj). lra.
    + rewrite map_map. apply map_ext_in. intros j Hj.
      rewrite Forall_forall in Hle. rewrite minus_INR by (now apply Hle). ring.
Qed.

(* Every class at once (proofs/perturbation.md, "Spread competitors"): k
   classes, each (G, c, its positions), give the keys' weights at most
   k e^(-beta gamma) / (1 - e^(-beta s)). *)
Definition class_gaps (cl : R * R * list nat) : list R :=
  map (fun j => fst (fst cl) + INR j * snd (fst cl)) (snd cl).

Definition class_ok (s gamma : R) (n : nat) (cl : R * R * list nat) : Prop :=
  s <= Rabs (snd (fst cl)) /\ NoDup (snd cl) /\ Forall (fun j => (j <= n)%nat) (snd cl) /\
  Forall (fun j => gamma <= fst (fst cl) + INR j * snd (fst cl)) (snd cl).

Theorem spread_positions : forall beta s gamma n classes, 0 < beta -> 0 < s ->
  Forall (class_ok s gamma n) classes ->
  weight_sum beta (concat (map class_gaps classes))
    <= INR (length classes) * (exp (- (beta * gamma)) / (1 - exp (- (beta * s)))).
Proof.
  intros beta s gamma n classes Hb Hs Hc; induction classes as [|cl cs IH].
  - unfold weight_sum. simpl. lra.
  - inversion Hc as [|? ? Hc1 Hcs]; subst. specialize (IH Hcs).
    cbn [map concat length]. rewrite S_INR.
    unfold weight_sum in *. rewrite map_app, sumR_app.
    destruct Hc1 as [Habs [Hnd [Hle Hg]]].
    pose proof (class_positions_sum beta s gamma n (fst (fst cl)) (snd (fst cl)) (snd cl)
                  Hb (conj Hs Habs) Hnd Hle Hg) as H1.
    unfold weight_sum, class_gaps in *. lra.
Qed.

(* ---- a segment of the profile's bound for affine scores ---- *)

(* proofs/profile-bound.md, "Closed forms for affine scores": the m gaps
   g0, g0 + s, ..., g0 + (m-1) s of one segment weigh
   e^(-beta g0) (1 - e^(-beta s m)) / (1 - e^(-beta s)), the closed form
   src/gap/symbolic_affine.cpp evaluates (as expm1 quotients). *)
Theorem segment_sum : forall beta s g0 m, 0 < beta -> 0 < s ->
  weight_sum beta (map (fun k => g0 + INR k * s) (seq 0 m)) =
  exp (- (beta * g0)) * (1 - exp (- (beta * s * INR m))) / (1 - exp (- (beta * s))).
Proof.
  intros beta s g0 m Hb Hs.
  assert (Hq : exp (- (beta * s)) < 1) by (rewrite <- exp_0; apply exp_increasing; nra).
  induction m as [|m IH].
  - unfold weight_sum. simpl. replace (- (beta * s * 0)) with 0 by ring.
    rewrite exp_0. field. lra.
  - rewrite seq_S. unfold weight_sum in *. rewrite !map_app, sumR_app, IH.
    cbn [map sumR]. rewrite S_INR, Nat.add_0_l.
    replace (- (beta * (g0 + INR m * s))) with (- (beta * g0) + - (beta * s * INR m)) by ring.
    replace (- (beta * s * (INR m + 1))) with (- (beta * s * INR m) + - (beta * s)) by ring.
    rewrite !exp_plus. field. lra.
Qed.

(* And the whole bound is a sum of such terms over a superset of the
   positions' gaps: a list of nonnegative weights is at most the sum over
   any list it is a sub-multiset of (here: the positions' gaps injected
   into the key offsets, the rest of the offsets weighing >= 0). *)
Theorem weight_sum_sub : forall beta l extra,
  weight_sum beta l <= weight_sum beta (l ++ extra).
Proof.
  intros beta l extra. unfold weight_sum. rewrite map_app, sumR_app.
  assert (0 <= sumR (map (fun d => exp (- (beta * d))) extra)).
  { induction extra as [|x t IH]; simpl; [lra|]. pose proof (exp_pos (- (beta * x))). lra. }
  lra.
Qed.
