(* The checker's analytic bound (proofs/certificate.md, "The checker's
   bound"; src/check/check_soft.cpp, tv_upper_bound): with the soft scores
   of the hard maximum's k positions in [L, U] and every other score at most
   H, TV(softmax, uniform on those k) <= max(0, 1 - k pi) where
   pi = e^(-beta (U - L)) / (k + (N - k) e^(-beta (L - H))).
   A position is a pair (soft score, whether it is one of the k). *)
From Coq Require Import Reals Lra Lia List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

Definition cnt (l : list (R * bool)) : nat := length (filter snd l).
Definition zs (beta : R) (l : list (R * bool)) : R := sumR (map (fun x => exp (beta * fst x)) l).
Definition ps (beta : R) (l : list (R * bool)) (x : R * bool) : R := exp (beta * fst x) / zs beta l.
Definition hs (K : R) (x : R * bool) : R := if snd x then / K else 0.
Definition tvs (beta : R) (l : list (R * bool)) : R :=
  / 2 * sumR (map (fun x => Rabs (ps beta l x - hs (INR (cnt l)) x)) l).

Lemma cnt_cons : forall x t, cnt (x :: t) = ((if snd x then 1 else 0) + cnt t)%nat.
Proof. intros. unfold cnt. simpl. destruct (snd x); reflexivity. Qed.

Lemma cnt_le_length : forall l, (cnt l <= length l)%nat.
Proof.
  intros l; induction l as [|x t IH]; [unfold cnt; simpl; lia|].
  rewrite cnt_cons. cbn [length]. destruct (snd x); lia.
Qed.

Lemma zs_pos : forall beta l, l <> [] -> 0 < zs beta l.
Proof.
  intros beta l Hne. destruct l as [|x t]; [congruence|]. unfold zs. cbn [map sumR].
  pose proof (exp_pos (beta * fst x)).
  assert (0 <= sumR (map (fun x => exp (beta * fst x)) t)).
  { clear. induction t as [|y t IH]; simpl; [lra|]. pose proof (exp_pos (beta * fst y)). lra. }
  lra.
Qed.

Lemma sum_ps : forall beta l, l <> [] -> sumR (map (ps beta l) l) = 1.
Proof.
  intros beta l Hne. pose proof (zs_pos beta l Hne) as HZ.
  assert (H : forall t, sumR (map (ps beta l) t) = zs beta t / zs beta l).
  { intros t; induction t as [|x t IH]; unfold zs in *; simpl; unfold ps in *.
    - unfold Rdiv. ring.
    - rewrite IH. unfold zs. unfold Rdiv. ring. }
  rewrite H. field. lra.
Qed.

Lemma sum_hs : forall K l, sumR (map (hs K) l) = INR (cnt l) * / K.
Proof.
  intros K l; induction l as [|x t IH]; [unfold cnt; simpl; ring|].
  cbn [map sumR]. rewrite IH, cnt_cons, plus_INR. unfold hs. destruct (snd x); simpl; ring.
Qed.

Lemma abs_split : forall y, Rabs y = 2 * Rmax 0 (- y) + y.
Proof.
  intros y. unfold Rmax, Rabs. destruct (Rcase_abs y); destruct (Rle_dec 0 (- y)); lra.
Qed.

(* TV is the mass h puts above p, all of it on the k positions. *)
Theorem tvs_positive_part : forall beta l, (1 <= cnt l)%nat ->
  tvs beta l = sumR (map (fun x => Rmax 0 (hs (INR (cnt l)) x - ps beta l x)) l).
Proof.
  intros beta l Hk.
  assert (Hne : l <> []) by (intros ->; unfold cnt in Hk; simpl in Hk; lia).
  assert (HK : 0 < INR (cnt l)) by (apply lt_0_INR; lia).
  unfold tvs.
  replace (map (fun x => Rabs (ps beta l x - hs (INR (cnt l)) x)) l)
    with (map (fun x => 2 * Rmax 0 (hs (INR (cnt l)) x - ps beta l x)
                        + (ps beta l x - hs (INR (cnt l)) x)) l).
  2: { apply map_ext. intros x. rewrite abs_split. f_equal. f_equal. f_equal. ring. }
  rewrite sumR_map_plus.
  replace (map (fun x => ps beta l x - hs (INR (cnt l)) x) l)
    with (map (fun x => ps beta l x + (-1) * hs (INR (cnt l)) x) l)
    by (apply map_ext; intros; ring).
  rewrite sumR_map_plus, sum_ps by exact Hne.
  rewrite (sumR_map_scale (-1) (hs (INR (cnt l)))), sum_hs.
  rewrite (sumR_map_scale 2 (fun x => Rmax 0 (hs (INR (cnt l)) x - ps beta l x))).
  field. lra.
Qed.

(* The enclosures the checker reads: scores of the k positions in [L, U],
   the others at most H. *)
Definition enclosed (L U H : R) (l : list (R * bool)) : Prop :=
  Forall (fun x : R * bool => if snd x then L <= fst x <= U else fst x <= H) l.

Lemma zs_bound : forall beta L U H l, 0 <= beta -> enclosed L U H l ->
  zs beta l <= INR (cnt l) * exp (beta * U) + (INR (length l) - INR (cnt l)) * exp (beta * H).
Proof.
  intros beta L U H l Hb He; induction l as [|x t IH]; [unfold zs, cnt; simpl; lra|].
  inversion He as [|? ? Hx Ht]; subst. specialize (IH Ht).
  unfold zs in *. cbn [map sumR length]. rewrite cnt_cons, S_INR.
  destruct (snd x).
  - rewrite plus_INR. change (INR 1) with 1.
    assert (exp (beta * fst x) <= exp (beta * U)) by (apply exp_le_of_le; nra). lra.
  - change (INR (0 + cnt t)) with (INR (cnt t)).
    assert (exp (beta * fst x) <= exp (beta * H)) by (apply exp_le_of_le; nra). lra.
Qed.

Definition pi_bound (beta L U H K N : R) : R :=
  exp (- (beta * (U - L))) / (K + (N - K) * exp (- (beta * (L - H)))).

(* Each of the k positions keeps at least pi of the weight. *)
Lemma ps_lower : forall beta L U H N l x,
  0 <= beta -> L <= U -> enclosed L U H l -> (1 <= cnt l)%nat -> INR (length l) <= N ->
  In x l -> snd x = true ->
  pi_bound beta L U H (INR (cnt l)) N <= ps beta l x.
Proof.
  intros beta L U H N l x Hb HLU He Hk HN Hin Hx.
  set (K := INR (cnt l)).
  assert (HK : 1 <= K) by (unfold K; pose proof (le_INR _ _ Hk) as T; simpl in T; exact T).
  assert (HKl : K <= INR (length l)) by (apply le_INR, cnt_le_length).
  assert (Hne : l <> []) by (intros ->; destruct Hin).
  pose proof (zs_pos beta l Hne) as HZ.
  pose proof (zs_bound beta L U H l Hb He) as HZb. fold K in HZb.
  assert (HsL : L <= fst x).
  { unfold enclosed in He. rewrite Forall_forall in He. specialize (He x Hin). rewrite Hx in He. lra. }
  set (eL := exp (beta * L)). set (eU := exp (beta * U)). set (eH := exp (beta * H)).
  assert (HeH : 0 < eH) by apply exp_pos.
  assert (HeU : 0 < eU) by apply exp_pos.
  assert (HeL : 0 < eL) by apply exp_pos.
  assert (INR (length l) * eH <= N * eH) by (apply Rmult_le_compat_r; lra).
  fold eU eH in HZb.
  assert (HZN : zs beta l <= K * eU + (N - K) * eH) by lra.
  assert (Hp : eL / (K * eU + (N - K) * eH) <= ps beta l x).
  { unfold ps. apply Rle_trans with (eL / zs beta l).
    - unfold Rdiv. apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
    - unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|].
      unfold eL. apply exp_le_of_le. nra. }
  eapply Rle_trans; [|exact Hp].
  (* pi <= eL / (K eU + (N-K) eH): cross-multiply, write the exponentials
     through eL, eU, eH *)
  unfold pi_bound.
  assert (E1 : exp (- (beta * (U - L))) = eL / eU).
  { unfold eL, eU. unfold Rdiv. rewrite <- exp_Ropp, <- exp_plus. f_equal. ring. }
  assert (E2 : exp (- (beta * (L - H))) = eH / eL).
  { unfold eL, eH. unfold Rdiv. rewrite <- exp_Ropp, <- exp_plus. f_equal. ring. }
  rewrite E1, E2.
  assert (EUL : eL <= eU) by (unfold eL, eU; apply exp_le_of_le; nra).
  assert (HD1 : 0 < K + (N - K) * (eH / eL)).
  { assert (0 <= (N - K) * (eH / eL)) by (apply Rmult_le_pos; [lra | unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]]).
    lra. }
  assert (HNK : 0 <= (N - K) * eH) by (apply Rmult_le_pos; lra).
  assert (HKL : 0 < K * eL) by nra.
  assert (HD2 : 0 < K * eU + (N - K) * eH) by nra.
  apply (Rmult_le_reg_r ((K + (N - K) * (eH / eL)) * (K * eU + (N - K) * eH))); [nra|].
  replace (eL / eU / (K + (N - K) * (eH / eL)) * ((K + (N - K) * (eH / eL)) * (K * eU + (N - K) * eH)))
    with (eL / eU * (K * eU + (N - K) * eH)) by (field; nonzero).
  replace (eL / (K * eU + (N - K) * eH) * ((K + (N - K) * (eH / eL)) * (K * eU + (N - K) * eH)))
    with (K * eL + (N - K) * eH) by (field; nonzero).
  replace (eL / eU * (K * eU + (N - K) * eH)) with (K * eL + (N - K) * eH * (eL / eU)) by (field; nonzero).
  assert (eL / eU <= 1) by (apply (Rmult_le_reg_r eU); [lra|]; replace (eL / eU * eU) with eL by (field; nonzero); lra).
  nra.
Qed.

(* The checker's bound. *)
Theorem checker_tv_bound : forall beta L U H N l,
  0 <= beta -> L <= U -> enclosed L U H l -> (1 <= cnt l)%nat -> INR (length l) <= N ->
  tvs beta l <= Rmax 0 (1 - INR (cnt l) * pi_bound beta L U H (INR (cnt l)) N).
Proof.
  intros beta L U H N l Hb HLU He Hk HN.
  rewrite tvs_positive_part by exact Hk.
  set (K := INR (cnt l)). set (pi := pi_bound beta L U H K N).
  assert (HK : 0 < K) by (apply lt_0_INR; lia).
  apply Rle_trans with (sumR (map (fun x : R * bool => if snd x then Rmax 0 (/ K - pi) else 0) l)).
  - apply sumR_map_le. intros x Hin. unfold hs.
    destruct (snd x) eqn:Hx.
    + pose proof (ps_lower beta L U H N l x Hb HLU He Hk HN Hin Hx) as Hp. fold K pi in Hp.
      unfold Rmax. destruct (Rle_dec 0 (/ K - ps beta l x)); destruct (Rle_dec 0 (/ K - pi)); lra.
    + assert (0 <= ps beta l x).
      { unfold ps. unfold Rdiv. apply Rmult_le_pos; [left; apply exp_pos|].
        left. apply Rinv_0_lt_compat, zs_pos. intros ->; destruct Hin. }
      unfold Rmax. destruct (Rle_dec 0 (0 - ps beta l x)); lra.
  - assert (Hsum : forall t, sumR (map (fun x : R * bool => if snd x then Rmax 0 (/ K - pi) else 0) t)
                           = INR (cnt t) * Rmax 0 (/ K - pi)).
    { intros t; induction t as [|x t IH]; [unfold cnt; simpl; ring|].
      cbn [map sumR]. rewrite IH, cnt_cons, plus_INR. destruct (snd x); simpl; ring. }
    rewrite Hsum. fold K.
    unfold Rmax. destruct (Rle_dec 0 (/ K - pi)); destruct (Rle_dec 0 (1 - K * pi)).
    + replace (1 - K * pi) with (K * (/ K - pi)) by (field; lra). lra.
    + exfalso. apply n. replace (1 - K * pi) with (K * (/ K - pi)) by (field; lra). nra.
    + nra.
    + lra.
Qed.
