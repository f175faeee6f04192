(* The injection step of the profile bound for keys affine in the key
   position (proofs/profile-bound.md, "One bound for a symbol's maxima";
   src/gap/symbolic_affine.cpp and, written a second time, the checker's
   src/check/check_profile.cpp). A maximum t = t0 + c jt with jt in [a, b]
   and a run of key positions j in [lo, hi]: position j's largest offer
   below t depends only on u = t - c j = t0 + c (jt - j), so its weight is
   w(t0 + c k) at the key offset k = jt - j. Distinct positions have
   distinct offsets, all in [a - hi, b - lo]; so with every weight >= 0,
   the positions' weights sum to at most the sum over every offset of that
   interval, whatever jt is. *)
From Coq Require Import Reals Lra Lia ZArith List FinFun.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* the integers x, x + 1, ..., y (none when y < x) *)
Definition zrange (x y : Z) : list Z :=
  map (fun i => (x + Z.of_nat i)%Z) (seq 0 (Z.to_nat (y - x + 1))).

Lemma in_zrange : forall x y k, (x <= k <= y)%Z -> In k (zrange x y).
Proof.
  intros x y k Hk. unfold zrange. apply in_map_iff.
  exists (Z.to_nat (k - x)). split.
  - rewrite Z2Nat.id by lia. lia.
  - apply in_seq. split; [lia|]. apply Z2Nat.inj_lt; lia.
Qed.

Lemma zrange_nodup : forall x y, NoDup (zrange x y).
Proof.
  intros x y. unfold zrange. apply FinFun.Injective_map_NoDup; [|apply seq_NoDup].
  intros i j H. lia.
Qed.

Lemma sumR_map_nonneg : forall (A : Type) (f : A -> R) l,
  (forall x, 0 <= f x) -> 0 <= sumR (map f l).
Proof.
  intros A f l Hf. induction l as [|x t IH]; simpl; [lra|]. specialize (Hf x). lra.
Qed.

Lemma sumR_map_app : forall (A : Type) (f : A -> R) l r,
  sumR (map f (l ++ r)) = sumR (map f l) + sumR (map f r).
Proof.
  intros A f l r. induction l as [|x t IH]; simpl; lra.
Qed.

(* A list without repeats inside another without repeats: its nonnegative
   weights sum to at most the other's. *)
Theorem sum_nodup_incl : forall (A : Type) (f : A -> R) (l r : list A),
  (forall x, 0 <= f x) -> NoDup l -> NoDup r -> incl l r ->
  sumR (map f l) <= sumR (map f r).
Proof.
  intros A f l. induction l as [|x t IH]; intros r Hf Hl Hr Hin.
  - simpl. now apply sumR_map_nonneg.
  - inversion Hl as [|? ? Hxt Ht]; subst.
    assert (Hx : In x r) by (apply Hin; left; reflexivity).
    destruct (in_split x r Hx) as [r1 [r2 ->]].
    assert (Hsub : incl t (r1 ++ r2)).
    { intros y Hy. assert (Hyr : In y (r1 ++ x :: r2)) by (apply Hin; right; exact Hy).
      apply in_app_or in Hyr. apply in_or_app. destruct Hyr as [H1|[H2|H2]].
      - now left.
      - subst. contradiction.
      - now right. }
    pose proof (IH (r1 ++ r2) Hf Ht (NoDup_remove_1 _ _ _ Hr) Hsub) as Hle.
    rewrite sumR_map_app in Hle. rewrite sumR_map_app. simpl. lra.
Qed.

(* The step as the code takes it: w u is the weight of a position whose
   maximum less its own key term is u (e^(-beta g(u)), or 0 when it has no
   offer below the maximum: such a position is forced and not in X). *)
Theorem position_weights_in_offsets : forall (w : R -> R) (t0 c : R) (jt a b lo hi : Z) js,
  (forall u, 0 <= w u) -> (a <= jt <= b)%Z -> NoDup js ->
  Forall (fun j => (lo <= j <= hi)%Z) js ->
  sumR (map (fun j => w ((t0 + c * IZR jt) - c * IZR j)) js)
    <= sumR (map (fun k => w (t0 + c * IZR k)) (zrange (a - hi) (b - lo))).
Proof.
  intros w t0 c jt a b lo hi js Hw Hjt Hnd Hrange.
  replace (map (fun j => w ((t0 + c * IZR jt) - c * IZR j)) js)
    with (map (fun k => w (t0 + c * IZR k)) (map (fun j => (jt - j)%Z) js)).
  - apply sum_nodup_incl; [intros; apply Hw | | apply zrange_nodup |].
    + apply FinFun.Injective_map_NoDup; [|exact Hnd]. intros i j H. lia.
    + intros k Hk. apply in_map_iff in Hk. destruct Hk as [j [<- Hj]].
      rewrite Forall_forall in Hrange. specialize (Hrange j Hj). apply in_zrange. lia.
  - rewrite map_map. apply map_ext. intros j. f_equal. rewrite minus_IZR. ring.
Qed.
