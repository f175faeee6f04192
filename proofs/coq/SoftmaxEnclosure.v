(* proofs/softmax-enclosure.md: the algebra under the enclosures of softmax
   weights and of their total variation against a uniform hard
   distribution, which soft evaluation and the checker's soft judgement
   compute in interval arithmetic.
   Claim 1: e / (e + rho) grows with e and falls with rho (e, rho >= 0), so
   over a box its bounds are at the corners share() takes.
   Claim 2: 1/k - e_j/(T + R) = (R + sum_{i in S} (e_i - e_j)) / (k (T + R))
   and e_i - e_j = e_j (exp(beta (s_i - s_j)) - 1). *)
From Coq Require Import Reals Lra List.
From TempcertProofs Require Import Softmax.
Import ListNotations.
Open Scope R_scope.

Theorem share_lower : forall el e rh rho, 0 <= el <= e -> 0 <= rho <= rh -> 0 < el + rh ->
  0 < e + rho -> el / (el + rh) <= e / (e + rho).
Proof.
  intros el e rh rho He Hr H1 H2.
  apply (Rmult_le_reg_r ((el + rh) * (e + rho))); [nra|].
  replace (el / (el + rh) * ((el + rh) * (e + rho))) with (el * (e + rho)) by (field; lra).
  replace (e / (e + rho) * ((el + rh) * (e + rho))) with (e * (el + rh)) by (field; lra).
  nra.
Qed.

Theorem share_upper : forall e eh rho rl, 0 <= e <= eh -> 0 <= rl <= rho -> 0 < eh + rl ->
  0 < e + rho -> e / (e + rho) <= eh / (eh + rl).
Proof.
  intros e eh rho rl He Hr H1 H2.
  apply (Rmult_le_reg_r ((eh + rl) * (e + rho))); [nra|].
  replace (e / (e + rho) * ((eh + rl) * (e + rho))) with (e * (eh + rl)) by (field; lra).
  replace (eh / (eh + rl) * ((eh + rl) * (e + rho))) with (eh * (e + rho)) by (field; lra).
  nra.
Qed.

(* T - k e_j is the sum over the support of e_i - e_j. *)
Lemma support_differences : forall (S : list R) ej,
  sumR (map (fun ei => ei - ej) S) = sumR S - INR (length S) * ej.
Proof.
  induction S as [|ei t IH]; intros ej; cbn [map sumR length]; [simpl; ring|].
  rewrite IH, S_INR. ring.
Qed.

Theorem uniform_deviation : forall (S : list R) R ej, (0 < length S)%nat ->
  0 < sumR S + R ->
  / INR (length S) - ej / (sumR S + R) =
  (R + sumR (map (fun ei => ei - ej) S)) / (INR (length S) * (sumR S + R)).
Proof.
  intros S R ej Hk HT. rewrite support_differences.
  assert (0 < INR (length S)) by (apply lt_0_INR; exact Hk).
  field. lra.
Qed.

Theorem exp_difference : forall beta si sj,
  exp (beta * si) - exp (beta * sj) = exp (beta * sj) * (exp (beta * (si - sj)) - 1).
Proof.
  intros beta si sj.
  replace (beta * si) with (beta * sj + beta * (si - sj)) at 1 by ring.
  rewrite exp_plus. ring.
Qed.
