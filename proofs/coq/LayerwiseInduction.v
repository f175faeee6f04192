(* The layerwise theorem's induction over layers and its taint bookkeeping
   (proofs/layerwise.md, "Theorem"). A state is the activation of one
   position, coordinates indexed by nat. Each layer carries the set of
   coordinates it keeps equal to H's (its untainted outputs, U_out) given
   that its inputs agree on the coordinates it reads (U_in); the taint
   bookkeeping's "no leak" check is that a layer reads only coordinates its
   predecessor left untainted. Then the soft model's untainted coordinates
   equal H's after every layer.

   The per-layer step rests on the results proved elsewhere: scores that
   read only agreeing coordinates are H's, so TV <= eps (Softmax.lemma_gt_k,
   or the profile bound), a head's output moves by at most TV times its span
   (HeadOutput.head_output_moves), a unit keeps its phase on the box
   (Layerwise.unit_keeps_phase), and on the box the sublayer is affine, so
   an output coordinate whose Jacobian row is 0 on every perturbed
   coordinate equals H's (affine_untainted below). *)
From Coq Require Import Reals Lra List.
Import ListNotations.
Open Scope R_scope.

Definition state := nat -> R.

Definition agree (U : nat -> Prop) (x y : state) : Prop := forall c, U c -> x c = y c.

Record layer := {
  soft : state -> state;
  hard : state -> state;
  reads : nat -> Prop;    (* the coordinates the layer reads *)
  untainted : nat -> Prop (* its outputs that stay H's *)
}.

(* The checked step of one layer. *)
Definition step_ok (L : layer) : Prop :=
  forall xs xh, agree (reads L) xs xh -> agree (untainted L) (soft L xs) (hard L xh).

(* No leak: each layer reads only what the one before left untainted. *)
Fixpoint no_leak (ls : list layer) : Prop :=
  match ls with
  | L1 :: ((L2 :: _) as t) => (forall c, reads L2 c -> untainted L1 c) /\ no_leak t
  | _ => True
  end.

Fixpoint run_soft (ls : list layer) (x : state) : state :=
  match ls with [] => x | L :: t => run_soft t (soft L x) end.
Fixpoint run_hard (ls : list layer) (x : state) : state :=
  match ls with [] => x | L :: t => run_hard t (hard L x) end.

Definition last_untainted (U0 : nat -> Prop) (ls : list layer) : nat -> Prop :=
  last (map untainted ls) U0.

(* The last element of a list that has one does not depend on the default. *)
Lemma last_default : forall (A : Type) (x : A) t d d', last (x :: t) d = last (x :: t) d'.
Proof.
  intros A x t; revert x; induction t as [|y t IH]; intros x d d'; [reflexivity|].
  change (last (y :: t) d = last (y :: t) d'). apply IH.
Qed.

Theorem layerwise_induction : forall ls (U0 : nat -> Prop) xs xh,
  Forall step_ok ls -> no_leak ls ->
  (match ls with [] => True | L :: _ => forall c, reads L c -> U0 c end) ->
  agree U0 xs xh ->
  agree (last_untainted U0 ls) (run_soft ls xs) (run_hard ls xh).
Proof.
  induction ls as [|L t IH]; intros U0 xs xh Hok Hleak Hfirst Hagree.
  - exact Hagree.
  - inversion Hok as [|? ? HL Ht]; subst.
    assert (Hstep : agree (untainted L) (soft L xs) (hard L xh)).
    { apply HL. intros c Hc. apply Hagree, Hfirst, Hc. }
    destruct t as [|L2 t'].
    + exact Hstep.
    + destruct Hleak as [H12 Hrest].
      specialize (IH (untainted L) (soft L xs) (hard L xh) Ht Hrest H12 Hstep).
      unfold last_untainted in *. cbn [map] in *.
      change (last (untainted L :: untainted L2 :: map untainted t') U0)
        with (last (untainted L2 :: map untainted t') U0).
      rewrite (last_default _ (untainted L2) (map untainted t') U0 (untainted L)).
      exact IH.
Qed.

(* The feed-forward step's taint rule: on the box the sublayer is affine,
   f(y) = f(yh) + J (y - yh); an output coordinate whose Jacobian row is 0
   on every coordinate where y and yh may differ equals H's. A Jacobian row
   is given by its entries on a finite list of input coordinates. *)
Definition affine_at (J : nat -> nat -> R) (cols : list nat) (f : state -> state)
  (y yh : state) : Prop :=
  forall c, f y c = f yh c + fold_right Rplus 0 (map (fun r => J c r * (y r - yh r)) cols).

Theorem affine_untainted : forall J cols f y yh c,
  affine_at J cols f y yh ->
  (forall r, In r cols -> y r = yh r \/ J c r = 0) ->
  f y c = f yh c.
Proof.
  intros J cols f y yh c Haff Hrow. rewrite Haff.
  assert (Hz : fold_right Rplus 0 (map (fun r => J c r * (y r - yh r)) cols) = 0).
  { clear Haff. induction cols as [|r t IH]; [reflexivity|].
    cbn [map fold_right].
    rewrite IH by (intros r' Hr'; apply Hrow; right; exact Hr').
    destruct (Hrow r (or_introl eq_refl)) as [E|E]; rewrite E; ring. }
  rewrite Hz. ring.
Qed.

(* One layer's step, composed: the soft half-activation hs is within
   radius_r of H's hh on every coordinate (each head's output moves by at
   most TV times its span, HeadOutput.head_output_moves, with TV <= eps by
   Lemma GT or the profile bound; the heads writing a coordinate add up);
   radius 0 means the coordinate is H's exactly; on that box the sublayer
   is affine (Layerwise.unit_keeps_phase for every unit), so an output
   coordinate whose Jacobian row is 0 on every perturbed coordinate (an
   untainted one) equals H's. *)
Theorem layer_step : forall (radius : nat -> R) J cols f hs hh c,
  (forall r, Rabs (hs r - hh r) <= radius r) ->
  affine_at J cols f hs hh ->
  (forall r, In r cols -> radius r = 0 \/ J c r = 0) ->
  f hs c = f hh c.
Proof.
  intros radius J cols f hs hh c Hbox Haff Hrow.
  apply (affine_untainted J cols f hs hh c Haff).
  intros r Hr. destruct (Hrow r Hr) as [H0|HJ]; [left|right; exact HJ].
  specialize (Hbox r). rewrite H0 in Hbox.
  destruct (Rle_dec 0 (hs r - hh r)).
  - rewrite Rabs_right in Hbox by lra. lra.
  - rewrite Rabs_left in Hbox by lra. lra.
Qed.

(* The box's radius on a coordinate: the heads writing it add their moves
   (each bounded by HeadOutput.head_output_moves), so the coordinate moves
   by at most the sum of their bounds. A head is (soft output, hard
   output, bound) on that coordinate. *)
Theorem heads_add_moves : forall (hs : list (R * R * R)),
  Forall (fun h => let '(s, t, b) := h in Rabs (s - t) <= b) hs ->
  Rabs (fold_right Rplus 0 (map (fun h => let '(s, _, _) := h in s) hs) -
        fold_right Rplus 0 (map (fun h => let '(_, t, _) := h in t) hs)) <=
  fold_right Rplus 0 (map (fun h => let '(_, _, b) := h in b) hs).
Proof.
  intros hs H; induction H as [|[[s t] b] rest Hh _ IH]; cbn [map fold_right].
  - replace (0 - 0) with 0 by ring. rewrite Rabs_R0. lra.
  - replace (s + fold_right Rplus 0 (map (fun h => let '(s0, _, _) := h in s0) rest) -
             (t + fold_right Rplus 0 (map (fun h => let '(_, t0, _) := h in t0) rest)))
      with ((s - t) + (fold_right Rplus 0 (map (fun h => let '(s0, _, _) := h in s0) rest) -
                       fold_right Rplus 0 (map (fun h => let '(_, t0, _) := h in t0) rest)))
      by ring.
    eapply Rle_trans; [apply Rabs_triang|]. simpl in Hh. lra.
Qed.
