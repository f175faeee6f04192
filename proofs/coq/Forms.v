(* proofs/irrational-ties.md, "Reductions": the identities exact forms use
   when they rewrite square roots (Claims 1 and 2 hold because forms are
   polynomials evaluated at fixed reals: equal polynomials, equal values). *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(* sqrt(k^2 m) = k sqrt(m) for k, m >= 0: a square factor taken out. *)
Theorem sqrt_square_factor : forall k m, 0 <= k -> 0 <= m -> sqrt (k * k * m) = k * sqrt m.
Proof.
  intros k m Hk Hm. rewrite sqrt_mult_alt by nra. rewrite sqrt_square by lra. reflexivity.
Qed.

(* sqrt(p/d) = sqrt(p d)/d for p >= 0, d > 0: the form of a rational's root. *)
Theorem sqrt_of_quotient : forall p d, 0 <= p -> 0 < d -> sqrt (p / d) = sqrt (p * d) / d.
Proof.
  intros p d Hp Hd.
  replace (p / d) with (p * d / (d * d)) by (field; lra).
  rewrite sqrt_div_alt by nra. rewrite sqrt_square by lra. reflexivity.
Qed.

(* Two factors sqrt(m) of one m >= 0 are m. *)
Theorem sqrt_times_itself : forall m, 0 <= m -> sqrt m * sqrt m = m.
Proof. intros m Hm. apply sqrt_sqrt, Hm. Qed.
