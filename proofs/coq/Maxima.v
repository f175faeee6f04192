(* Lemma 1 of proofs/symbolic-gap.md, the directions the scans' soundness
   rests on (the converse directions only build witness words, which are
   replayed through the exact evaluator before they are reported):
   (a) a choice's maximum t is at least every position's least offer, so
       at least L = max_j min O_j: the offers below L are not maxima;
   (b) with maximum t held by one position, every other chosen value below
       t is an offer below t of another position, hence at most r(t): the
       choice's gap is at least t - r(t). *)
From Coq Require Import Reals Lra List.
Import ListNotations.
Open Scope R_scope.

(* A choice cs, one value per position, each at least that position's
   least offer (mins), all at most the maximum t. *)
Theorem maximum_at_least_L : forall (cs mins : list R) t,
  Forall2 (fun c m => m <= c) cs mins -> Forall (fun c => c <= t) cs ->
  Forall (fun m => m <= t) mins.
Proof.
  intros cs mins t H; induction H as [|c m cs' ms' Hcm _ IH]; intros Ht; [constructor|].
  inversion Ht as [|? ? Hc Hrest]; subst. constructor; [lra|]. apply IH, Hrest.
Qed.

(* The runner-up: every value of the other positions below t is at most
   r, so each is at least t - r below the maximum. *)
Theorem gap_at_least_runner_up : forall (others : list R) t r,
  Forall (fun v => v < t -> v <= r) others ->
  Forall (fun v => v < t -> t - r <= t - v) others.
Proof.
  intros others t r H; induction H as [|v vs Hv _ IH]; constructor; [|exact IH].
  intros Hlt. specialize (Hv Hlt). lra.
Qed.
