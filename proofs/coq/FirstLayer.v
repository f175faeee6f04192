(* The profile bound's step from a single-layer model to its queries
   (proofs/profile-bound.md, claim (3); proofs/symbolic-gap.md, "Setting"):
   in layer 1 the activation of position j is x_j = E(w_j) + P(j), and a
   head's score at j is the linear functional s = q . W_K applied to it, so
   s(x_j) = A(w_j) + B(j) with A(sigma) = s(E(sigma)) and B(j) = s(P(j)):
   position j offers A(sigma) + B(j) for the symbol it holds, and a word's
   score vector at a query is one choice of one offer per allowed position.
   Scores do not depend on beta. So any judgement of score vectors (TV <= eps
   at a given beta) that holds for every choice holds for every word. *)
From Coq Require Import Reals List.
Import ListNotations.
Open Scope R_scope.

Definition vec := nat -> R.
Definition vadd (x y : vec) : vec := fun c => x c + y c.

(* A word's scores at the allowed positions are its choice of offers, for a
   score additive in the activation (q . W_K is linear). *)
Theorem word_scores_are_offers : forall (Sym : Type) (score : vec -> R) (E : Sym -> vec)
  (P : nat -> vec) (w : nat -> Sym) (positions : list nat),
  (forall x y, score (vadd x y) = score x + score y) ->
  map (fun j => score (vadd (E (w j)) (P j))) positions =
  map (fun j => score (E (w j)) + score (P j)) positions.
Proof.
  intros Sym score E P w positions Hadd. apply map_ext. intros j. apply Hadd.
Qed.

(* So a judgement that holds for every choice of a symbol per position
   holds for every word. *)
Theorem every_word_from_every_choice : forall (Sym : Type) (score : vec -> R)
  (E : Sym -> vec) (P : nat -> vec) (judge : list R -> Prop) (positions : list nat),
  (forall x y, score (vadd x y) = score x + score y) ->
  (forall choice : nat -> Sym,
      judge (map (fun j => score (E (choice j)) + score (P j)) positions)) ->
  forall w : nat -> Sym, judge (map (fun j => score (vadd (E (w j)) (P j))) positions).
Proof.
  intros Sym score E P judge positions Hadd H w.
  rewrite (word_scores_are_offers Sym score E P w positions Hadd). apply H.
Qed.
