(* The profile bound (proofs/profile-bound.md): TV <= eps exactly when the
   weighted sum X of the scores below the maximum is at most k eps/(1-eps);
   X and TV fall as beta grows (so bisection on beta is sound); and the
   threshold is at most ln((m-k)/c)/d_min. *)
From Coq Require Import Reals Lra Lia List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

(* Claim, first sentence: TV <= eps iff X <= c = k eps/(1-eps). *)
Theorem tv_le_eps_iff : forall beta mx eps l,
  is_max mx l -> 0 < eps < 1 ->
  (tv beta mx l <= eps <->
   below beta mx l <= INR (count_max mx l) * eps / (1 - eps)).
Proof.
  intros beta mx eps l Hm He.
  rewrite tv_below_identity by exact Hm.
  set (k := INR (count_max mx l)). set (X := below beta mx l).
  assert (Hk : 1 <= k) by (apply count_at_least_one; exact Hm).
  assert (HX : 0 <= X) by apply below_nonneg.
  split; intro H.
  - apply (Rmult_le_compat_r (k + X)) in H; [|lra].
    replace (X / (k + X) * (k + X)) with X in H by (field; lra).
    apply (Rmult_le_reg_r (1 - eps)); [lra|].
    replace (k * eps / (1 - eps) * (1 - eps)) with (k * eps) by (field; lra). nra.
  - apply (Rmult_le_reg_r (k + X)); [lra|].
    replace (X / (k + X) * (k + X)) with X by (field; lra).
    apply (Rmult_le_compat_r (1 - eps)) in H; [|lra].
    replace (k * eps / (1 - eps) * (1 - eps)) with (k * eps) in H by (field; lra). nra.
Qed.

(* Claim (1), the part the bisection uses: X does not grow with beta. *)
Theorem below_antitone : forall b1 b2 mx l,
  0 <= b1 <= b2 -> Forall (fun s => s <= mx) l -> below b2 mx l <= below b1 mx l.
Proof.
  intros b1 b2 mx l Hb Hl; induction l as [|s t IH]; unfold below in *; simpl; [lra|].
  inversion Hl as [|? ? Hs Ht]; subst. specialize (IH Ht).
  destruct (Req_EM_T s mx); [lra|].
  assert (exp (b2 * (s - mx)) <= exp (b1 * (s - mx))) by (apply exp_le_of_le; nra).
  lra.
Qed.

(* So TV does not grow with beta: a beta that meets eps, every larger one does. *)
Theorem tv_antitone : forall b1 b2 mx l,
  0 <= b1 <= b2 -> is_max mx l -> tv b2 mx l <= tv b1 mx l.
Proof.
  intros b1 b2 mx l Hb Hm.
  rewrite !tv_below_identity by exact Hm.
  pose proof (count_at_least_one mx l Hm).
  pose proof (below_nonneg b2 mx l).
  pose proof (below_antitone b1 b2 mx l Hb (proj2 Hm)).
  apply frac_mono; lra.
Qed.

(* Claim (2): with m positions, k of them maximal and every other score at
   least d below the maximum, beta >= ln((m-k)/c)/d gives TV <= eps
   (or any beta >= 0 when m - k <= c). *)
Theorem profile_threshold_upper : forall beta d eps mx l,
  0 < d -> 0 < eps < 1 -> 0 <= beta -> is_max mx l -> gap_at_least d mx l ->
  let k := INR (count_max mx l) in
  let c := k * eps / (1 - eps) in
  let free := INR (length l) - k in
  (free <= c \/ ln (free / c) / d <= beta) ->
  tv beta mx l <= eps.
Proof.
  intros beta d eps mx l Hd He Hb Hm Hg k c free Hbeta.
  apply (proj2 (tv_le_eps_iff beta mx eps l Hm He)). fold k. fold c.
  set (E := exp (- (beta * d))).
  assert (HE : 0 < E) by apply exp_pos.
  assert (Hk : 1 <= k) by (apply count_at_least_one; exact Hm).
  assert (Hc : 0 < c) by (unfold c; apply Rdiv_lt_0_compat; nra).
  pose proof (below_bound beta d mx l Hb Hg) as HB. fold k E in HB.
  assert (HXf : below beta mx l <= free * E) by (unfold free; lra).
  assert (Hfree : 0 <= free) by (pose proof (below_nonneg beta mx l); nra).
  destruct Hbeta as [Hf | Hln].
  - assert (E <= 1) by (unfold E; rewrite <- exp_0; apply exp_le_of_le; nra). nra.
  - destruct (Req_dec free 0) as [H0 | H0]; [rewrite H0 in HXf; lra|].
    assert (Hpos : 0 < free / c) by (apply Rdiv_lt_0_compat; lra).
    assert (ln (free / c) <= beta * d).
    { apply (Rmult_le_compat_r d) in Hln; [|lra].
      replace (ln (free / c) / d * d) with (ln (free / c)) in Hln by (field; lra). lra. }
    assert (HEc : E <= c / free).
    { unfold E. replace (c / free) with (/ (free / c)) by (field; lra).
      rewrite <- (exp_ln (free / c) Hpos), <- exp_Ropp. apply exp_le_of_le. lra. }
    apply (Rmult_le_compat_l free) in HEc; [|lra].
    replace (free * (c / free)) with c in HEc by (field; lra). lra.
Qed.

(* Claim (1)'s strictness: with at least one score below the maximum, X
   falls strictly as beta grows, so X(beta) = c has at most one root. *)
Theorem below_strict : forall b1 b2 mx l,
  0 <= b1 < b2 -> Forall (fun s => s <= mx) l -> Exists (fun s => s < mx) l ->
  below b2 mx l < below b1 mx l.
Proof.
  intros b1 b2 mx l Hb Hl He; induction l as [|s t IH]; [inversion He|].
  inversion Hl as [|? ? Hs Ht]; subst.
  unfold below in *. cbn [map sumR].
  pose proof (below_antitone b1 b2 mx t (conj (proj1 Hb) (Rlt_le _ _ (proj2 Hb))) Ht) as Hmono.
  unfold below in Hmono.
  inversion He as [? ? Hlt | ? ? Hex]; subst.
  - destruct (Req_EM_T s mx) as [Heq | Hne]; [lra|].
    assert (exp (b2 * (s - mx)) < exp (b1 * (s - mx))) by (apply exp_increasing; nra).
    lra.
  - specialize (IH Ht Hex).
    destruct (Req_EM_T s mx); [lra|].
    assert (exp (b2 * (s - mx)) <= exp (b1 * (s - mx))) by (apply exp_le_of_le; nra).
    lra.
Qed.

(* ---- claim (1)'s root exists (the intermediate value theorem) ---- *)

Lemma exp_term_continuous : forall a, continuity (fun b => exp (b * a)).
Proof.
  intros a. apply derivable_continuous.
  change (fun b => exp (b * a)) with (comp exp (mult_fct id (fct_cte a))).
  apply derivable_comp; [apply derivable_mult; [apply derivable_id | apply derivable_const] |
                         apply derivable_exp].
Qed.

Lemma below_continuous : forall mx l, continuity (fun beta => below beta mx l).
Proof.
  intros mx l. induction l as [|s t IH]; unfold below in *; simpl.
  - apply continuity_const. intros x y. reflexivity.
  - apply (continuity_plus (fun beta => if Req_EM_T s mx then 0 else exp (beta * (s - mx)))
                           (fun beta => sumR (map (fun s0 => if Req_EM_T s0 mx then 0
                                                              else exp (beta * (s0 - mx))) t))).
    + destruct (Req_EM_T s mx).
      * apply continuity_const. intros x y. reflexivity.
      * apply exp_term_continuous.
    + exact IH.
Qed.

(* Claim (1)'s root: when X(0) > c, X(beta) = c at some beta > 0 (and,
   by Profile.below_strict, only there). *)
Theorem threshold_exists : forall d eps mx l,
  0 < d -> 0 < eps < 1 -> is_max mx l -> gap_at_least d mx l ->
  let c := INR (count_max mx l) * eps / (1 - eps) in
  c < below 0 mx l ->
  { beta | 0 < beta /\ below beta mx l = c }.
Proof.
  intros d eps mx l Hd He Hm Hg c Hc0.
  set (k := INR (count_max mx l)) in *.
  set (free := INR (length l) - k).
  assert (Hk : 1 <= k) by (apply count_at_least_one; exact Hm).
  assert (Hcpos : 0 < c) by (unfold c; apply Rdiv_lt_0_compat; nra).
  pose proof (below_bound 0 d mx l (Rle_refl 0) Hg) as HB0.
  fold k in HB0. replace (exp (- (0 * d))) with 1 in HB0
    by (replace (- (0 * d)) with 0 by ring; now rewrite exp_0).
  assert (Hfc : c < free) by (unfold free; lra).
  set (beta0 := ln (free / c) / d).
  assert (Hratio : 1 < free / c) by (apply (Rmult_lt_reg_r c); [lra|];
                                      unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
  assert (Hb0 : 0 < beta0) by (unfold beta0; apply Rdiv_lt_0_compat; [rewrite <- ln_1;
                                apply ln_increasing; lra | lra]).
  assert (Hat : below beta0 mx l <= c).
  { apply (proj1 (tv_le_eps_iff beta0 mx eps l Hm He)).
    apply (profile_threshold_upper beta0 d eps mx l Hd He (Rlt_le _ _ Hb0) Hm Hg).
    right. apply Rle_refl. }
  destruct (IVT_cor (fun beta => below beta mx l - c) 0 beta0) as [z [Hz Hzero]].
  - apply (continuity_minus (fun beta => below beta mx l) (fct_cte c));
      [apply below_continuous | apply continuity_const; intros x y; reflexivity].
  - lra.
  - assert (0 < below 0 mx l - c) by lra. assert (below beta0 mx l - c <= 0) by lra. nra.
  - exists z. split; [|lra].
    destruct (Req_dec z 0) as [->|Hne]; [lra | lra].
Qed.

(* ---- claim (3): the tight beta of a set of queries is the largest of
   their thresholds ---- *)

(* X > 0 needs a score below the maximum. *)
Lemma below_pos_exists : forall beta mx l,
  Forall (fun s => s <= mx) l -> 0 < below beta mx l -> Exists (fun s => s < mx) l.
Proof.
  intros beta mx l Hl; induction l as [|s t IH]; unfold below in *; simpl; intro H; [lra|].
  inversion Hl as [|? ? Hs Ht]; subst.
  destruct (Req_EM_T s mx) as [Heq|Hne].
  - apply Exists_cons_tl. apply IH; [exact Ht | lra].
  - apply Exists_cons_hd. lra.
Qed.

(* Claim (1) as the code uses it: one query's threshold t >= 0 with
   TV <= eps exactly for beta >= t (t = 0 when X(0) <= c, else the root of
   X = c). *)
Theorem query_threshold : forall d eps mx l,
  0 < d -> 0 < eps < 1 -> is_max mx l -> gap_at_least d mx l ->
  exists t, 0 <= t /\ forall beta, 0 <= beta -> (tv beta mx l <= eps <-> t <= beta).
Proof.
  intros d eps mx l Hd He Hm Hg.
  set (c := INR (count_max mx l) * eps / (1 - eps)).
  assert (Hk : 1 <= INR (count_max mx l)) by (apply count_at_least_one; exact Hm).
  assert (Hc : 0 < c) by (unfold c; apply Rdiv_lt_0_compat; nra).
  destruct (Rle_lt_dec (below 0 mx l) c) as [H0 | H0].
  - exists 0. split; [lra|]. intros beta Hb. split; intro H; [lra|].
    apply (proj2 (tv_le_eps_iff beta mx eps l Hm He)). fold c.
    pose proof (below_antitone 0 beta mx l (conj (Rle_refl 0) Hb) (proj2 Hm)). lra.
  - destruct (threshold_exists d eps mx l Hd He Hm Hg H0) as [t [Ht Hroot]]. fold c in Hroot.
    exists t. split; [lra|]. intros beta Hb. split; intro H.
    + apply (proj1 (tv_le_eps_iff beta mx eps l Hm He)) in H. fold c in H.
      destruct (Rle_lt_dec t beta) as [|Hlt]; [assumption|]. exfalso.
      assert (Hex : Exists (fun s => s < mx) l)
        by (apply (below_pos_exists 0 mx l (proj2 Hm)); lra).
      pose proof (below_strict beta t mx l (conj Hb Hlt) (proj2 Hm) Hex). lra.
    + apply (proj2 (tv_le_eps_iff beta mx eps l Hm He)). fold c.
      pose proof (below_antitone t beta mx l (conj (Rlt_le _ _ Ht) H) (proj2 Hm)). lra.
Qed.

Definition max_list (ts : list R) : R := fold_right Rmax 0 ts.

Lemma max_list_le_iff : forall ts beta,
  0 <= beta -> (Forall (fun t => t <= beta) ts <-> max_list ts <= beta).
Proof.
  intros ts beta Hb; induction ts as [|t r IH]; simpl.
  - split; intro; [lra | constructor].
  - split; intro H.
    + inversion H as [|? ? Ht Hr]; subst. apply Rmax_lub; [exact Ht | apply IH; exact Hr].
    + constructor.
      * eapply Rle_trans; [apply Rmax_l | exact H].
      * apply IH. eapply Rle_trans; [apply Rmax_r | exact H].
Qed.

(* Claim (3), the step from queries to a model: queries (maximum, scores)
   whose scores do not depend on beta -- a single-layer model's are its
   hard scores, which is the part of (3) about models and stays in
   proofs/profile-bound.md -- all meet eps at beta >= 0 exactly when beta
   is at least the largest of their thresholds, so that largest threshold
   is the tight beta. *)
Theorem tight_is_max_threshold : forall d eps (qs : list (R * list R)),
  0 < d -> 0 < eps < 1 ->
  Forall (fun q => is_max (fst q) (snd q) /\ gap_at_least d (fst q) (snd q)) qs ->
  exists ts, length ts = length qs /\
    forall beta, 0 <= beta ->
      (Forall (fun q => tv beta (fst q) (snd q) <= eps) qs <-> max_list ts <= beta).
Proof.
  intros d eps qs Hd He Hqs. induction qs as [|q r IH].
  - exists nil. split; [reflexivity|]. intros beta Hb. simpl. split; intro; [lra | constructor].
  - inversion Hqs as [|? ? [Hm Hg] Hr]; subst.
    destruct (query_threshold d eps (fst q) (snd q) Hd He Hm Hg) as [t [Ht Hiff]].
    destruct (IH Hr) as [ts [Hlen Hall]].
    exists (t :: ts). split; [simpl; congruence|]. intros beta Hb.
    rewrite <- (max_list_le_iff (t :: ts) beta Hb).
    split; intro H.
    + inversion H as [|? ? Hq Hrest]; subst. constructor.
      * apply (proj1 (Hiff beta Hb)). exact Hq.
      * apply (max_list_le_iff ts beta Hb). apply (proj1 (Hall beta Hb)). exact Hrest.
    + inversion H as [|? ? Hq Hrest]; subst. constructor.
      * apply (proj2 (Hiff beta Hb)). exact Hq.
      * apply (proj2 (Hall beta Hb)). apply (max_list_le_iff ts beta Hb). exact Hrest.
Qed.
