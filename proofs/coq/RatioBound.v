(* The perturbation argument's bound on the maximising set
   (proofs/perturbation.md, "One layer", 2, second bullet): weights whose
   ratios are within rho = r^2 (each in [c, r^2 c]) are at total variation
   at most (r - 1)/(r + 1) from uniform; with r = e^(beta e) that is
   tanh(beta e / 2). TV is written as the mass p puts above uniform, which
   is TV when both have mass 1 (HeadOutput.positive_part_is_tv). *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

Section Weights.
Variables (W m : R).

Definition above (w : R) : bool := if Rlt_dec (/ m) (w / W) then true else false.

Definition excess (l : list R) : R := sumR (map (fun w => Rmax 0 (w / W - / m)) l).
Definition mass_a (l : list R) : R := sumR (map (fun w => if above w then w else 0) l).
Definition mass_b (l : list R) : R := sumR (map (fun w => if above w then 0 else w) l).
Definition count_a (l : list R) : R := sumR (map (fun w => if above w then 1 else 0) l).
Definition count_b (l : list R) : R := sumR (map (fun w => if above w then 0 else 1) l).

Lemma excess_split : forall l, excess l = mass_a l / W - count_a l / m.
Proof.
  intros l; induction l as [|w t IH]; unfold excess, mass_a, count_a in *; simpl;
    [unfold Rdiv; ring|].
  rewrite IH. unfold above. destruct (Rlt_dec (/ m) (w / W)) as [H|H].
  - rewrite Rmax_right by lra. unfold Rdiv. ring.
  - rewrite Rmax_left by lra. unfold Rdiv. ring.
Qed.

Lemma mass_total : forall l, mass_a l + mass_b l = sumR l.
Proof.
  intros l; induction l as [|w t IH]; unfold mass_a, mass_b in *; simpl; [ring|].
  destruct (above w); lra.
Qed.

Lemma count_total : forall l, count_a l + count_b l = INR (length l).
Proof.
  intros l; induction l as [|w t IH]; unfold count_a, count_b in *; cbn [map sumR length]; [simpl; ring|].
  rewrite S_INR. destruct (above w); lra.
Qed.

Lemma mass_a_upper : forall c hi l, Forall (fun w => c <= w <= hi) l -> mass_a l <= hi * count_a l.
Proof.
  intros c hi l H; induction l as [|w t IH]; unfold mass_a, count_a in *; simpl; [lra|].
  inversion H as [|? ? Hw Ht]; subst. specialize (IH Ht). destruct (above w); lra.
Qed.

Lemma mass_b_lower : forall c hi l, Forall (fun w => c <= w <= hi) l -> c * count_b l <= mass_b l.
Proof.
  intros c hi l H; induction l as [|w t IH]; unfold mass_b, count_b in *; simpl; [lra|].
  inversion H as [|? ? Hw Ht]; subst. specialize (IH Ht). destruct (above w); lra.
Qed.

Lemma count_a_nonneg : forall l, 0 <= count_a l.
Proof. intros l; induction l as [|w t IH]; unfold count_a in *; simpl; [lra|]. destruct (above w); lra. Qed.

Lemma count_b_nonneg : forall l, 0 <= count_b l.
Proof. intros l; induction l as [|w t IH]; unfold count_b in *; simpl; [lra|]. destruct (above w); lra. Qed.

Lemma mass_a_nonneg : forall c hi l, 0 <= c -> Forall (fun w => c <= w <= hi) l -> 0 <= mass_a l.
Proof.
  intros c hi l Hc H; induction l as [|w t IH]; unfold mass_a in *; simpl; [lra|].
  inversion H as [|? ? Hw Ht]; subst. specialize (IH Ht). destruct (above w); lra.
Qed.

End Weights.

(* The real inequality at the heart: a positions above, b below. *)
Lemma ratio_algebra : forall r a b, 1 <= r -> 0 <= a -> 0 <= b -> 0 < a + b ->
  r * r * a / (r * r * a + b) - a / (a + b) <= (r - 1) / (r + 1).
Proof.
  intros r a b Hr Ha Hb Hab.
  destruct (Req_dec a 0) as [-> | Ha0].
  - replace (r * r * 0 / (r * r * 0 + b) - 0 / (0 + b)) with 0 by (field; nonzero).
    unfold Rdiv. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra].
  - assert (Hapos : 0 < a) by (destruct Ha as [H|H]; [exact H | exfalso; apply Ha0; symmetry; exact H]).
    assert (Hrr : 1 <= r * r) by nra.
    assert (HD : 0 < r * r * a + b) by nra.
    apply (Rmult_le_reg_r ((r * r * a + b) * (a + b) * (r + 1))); [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra|].
    replace ((r * r * a / (r * r * a + b) - a / (a + b)) * ((r * r * a + b) * (a + b) * (r + 1)))
      with (a * b * (r * r - 1) * (r + 1)) by (field; nonzero).
    replace ((r - 1) / (r + 1) * ((r * r * a + b) * (a + b) * (r + 1)))
      with ((r - 1) * ((r * r * a + b) * (a + b))) by (field; nonzero).
    assert (Hsq : 0 <= (r * a - b) * (r * a - b)) by (pose proof (Rle_0_sqr (r * a - b)); unfold Rsqr in *; lra).
    assert (0 <= (r - 1) * ((r * a - b) * (r * a - b))) by (apply Rmult_le_pos; lra).
    (* the gap between the sides is (r - 1)(r a - b)^2 *)
    replace ((r - 1) * ((r * r * a + b) * (a + b)))
      with (a * b * (r * r - 1) * (r + 1) + (r - 1) * ((r * a - b) * (r * a - b))) by ring.
    lra.
Qed.

Theorem ratio_tv_bound : forall c r l,
  0 < c -> 1 <= r -> l <> [] -> Forall (fun w => c <= w <= r * r * c) l ->
  excess (sumR l) (INR (length l)) l <= (r - 1) / (r + 1).
Proof.
  intros c r l Hc Hr Hne Hl.
  set (W := sumR l). set (m := INR (length l)).
  rewrite excess_split.
  set (A := mass_a W m l). set (B := mass_b W m l).
  set (a := count_a W m l). set (b := count_b W m l).
  assert (HAB : A + B = W) by apply mass_total.
  assert (Hab : a + b = m) by apply count_total.
  assert (HA : A <= r * r * c * a) by (apply (mass_a_upper W m c); exact Hl).
  assert (HB : c * b <= B) by (apply (mass_b_lower W m c (r * r * c)); exact Hl).
  assert (Ha : 0 <= a) by apply count_a_nonneg.
  assert (Hb : 0 <= b) by apply count_b_nonneg.
  assert (Hm : 0 < m).
  { unfold m. destruct l as [|w t]; [congruence|]. cbn [length]. rewrite S_INR. pose proof (pos_INR (length t)). lra. }
  assert (HW : 0 < W).
  { assert (HWl : c * m <= W).
    { unfold W, m. clear -Hl. induction l as [|w t IH]; cbn [sumR length]; [simpl; lra|].
      inversion Hl as [|? ? Hw Ht]; subst. rewrite S_INR. specialize (IH Ht). lra. }
    nra. }
  assert (HA0 : 0 <= A)
    by (apply (mass_a_nonneg W m c (r * r * c)); [lra | exact Hl]).
  (* A / W <= r^2 a / (r^2 a + b): A/(A+B) grows with A and falls with B *)
  assert (Hstep : A / W <= r * r * a / (r * r * a + b)).
  { destruct (Req_dec a 0) as [Ha0 | Ha0].
    - assert (A = 0) by nra. rewrite H, Ha0. unfold Rdiv. rewrite !Rmult_0_l. lra.
    - assert (Hapos : 0 < a) by (destruct Ha as [H|H]; [exact H | exfalso; apply Ha0; symmetry; exact H]).
      assert (Hrr : 1 <= r * r) by nra.
      assert (Hra : 0 < r * r * a) by (apply Rmult_lt_0_compat; lra).
      assert (HD : 0 < r * r * a + b) by lra.
      apply (Rmult_le_reg_r (W * (r * r * a + b))); [apply Rmult_lt_0_compat; lra|].
      replace (A / W * (W * (r * r * a + b))) with (A * (r * r * a + b)) by (field; nonzero).
      replace (r * r * a / (r * r * a + b) * (W * (r * r * a + b))) with (r * r * a * W) by (field; nonzero).
      rewrite <- HAB.
      (* A (r^2 a + b) <= r^2 a (A + B) iff A b <= r^2 a B; A b <= r^2 c a b <= r^2 a B *)
      assert (A * b <= r * r * c * a * b) by (apply Rmult_le_compat_r; lra).
      assert (r * r * a * (c * b) <= r * r * a * B) by (apply Rmult_le_compat_l; nra).
      nra. }
  pose proof (ratio_algebra r a b Hr Ha Hb ltac:(lra)) as Halg.
  rewrite Hab in Halg. lra.
Qed.

(* With r = e^(beta e), the bound is tanh(beta e / 2), written out. *)
Lemma tanh_form : forall x,
  (exp x - 1) / (exp x + 1) = (exp (x / 2) - exp (- (x / 2))) / (exp (x / 2) + exp (- (x / 2))).
Proof.
  intros x.
  assert (Hy : 0 < exp (x / 2)) by apply exp_pos.
  replace (exp x) with (exp (x / 2) * exp (x / 2)) by (rewrite <- exp_plus; f_equal; field).
  rewrite exp_Ropp. field. split; apply Rgt_not_eq; nra.
Qed.
