(* Whole certified instances: the generic half of a file
   that `tempcert export coq` writes. Such a file defines a single-layer
   model's exact scores over Q, a table of rational upper bounds on
   e^(-beta g) for the gaps g that occur, and proves

     for every word over the alphabet of length 1..n, every head, every
     query and every maximum mx of the query's allowed scores,
     tv beta mx scores <= eps

   from three facts: the table's bounds (the `interval` tactic), a boolean
   check over every word (`vm_compute` over exact rationals) and
   `instance_sound` below, which turns the check into the claim through
   tv_le_eps_iff (proofs/profile-bound.md). Nothing of tempcert is trusted:
   the words are enumerated here, the scores computed here. *)
From Coq Require Import Reals QArith Qreals Lra Lia List Bool.
From TempcertProofs Require Import Softmax Profile.
Import ListNotations.

(* ---- exact vectors over Q ---- *)

Fixpoint qdot (a b : list Q) : Q :=
  match a, b with
  | x :: a', y :: b' => (x * y + qdot a' b')%Q
  | _, _ => 0%Q
  end.

Definition qmatvec (m : list (list Q)) (v : list Q) : list Q := map (fun row => qdot row v) m.

Fixpoint qvadd (a b : list Q) : list Q :=
  match a, b with
  | x :: a', y :: b' => (x + y)%Q :: qvadd a' b'
  | _, _ => []
  end.

(* ---- the maximum of a list of exact scores ---- *)

Fixpoint qmax_from (m : Q) (l : list Q) : Q :=
  match l with
  | [] => m
  | y :: t => qmax_from (if Qle_bool m y then y else m) t
  end.

Lemma qmax_from_in : forall l m, qmax_from m l = m \/ In (qmax_from m l) l.
Proof.
  induction l as [|y t IH]; intros m; simpl; [now left|].
  destruct (IH (if Qle_bool m y then y else m)) as [H|H].
  - rewrite H. destruct (Qle_bool m y); [right; left; reflexivity | left; reflexivity].
  - right; right; exact H.
Qed.

Lemma qmax_from_ge : forall l m, (m <= qmax_from m l)%Q /\ Forall (fun y => (y <= qmax_from m l)%Q) l.
Proof.
  induction l as [|y t IH]; intros m; simpl; [split; [apply Qle_refl | constructor]|].
  destruct (IH (if Qle_bool m y then y else m)) as [H1 H2].
  destruct (Qle_bool m y) eqn:E.
  - apply Qle_bool_iff in E. split; [eapply Qle_trans; eauto|]. constructor; assumption.
  - assert (Hy : (y <= m)%Q).
    { apply Qlt_le_weak, Qnot_le_lt. intro C. apply Qle_bool_iff in C. congruence. }
    split; [assumption|]. constructor; [eapply Qle_trans; eauto | assumption].
Qed.

Lemma qmax_is_max : forall x t, is_max (Q2R (qmax_from x t)) (map Q2R (x :: t)).
Proof.
  intros x t. split.
  - destruct (qmax_from_in t x) as [H|H].
    + rewrite H. left; reflexivity.
    + right. apply in_map. exact H.
  - destruct (qmax_from_ge t x) as [H1 H2]. simpl. constructor; [apply Qle_Rle; exact H1|].
    rewrite Forall_forall in H2 |- *. intros r Hr. apply in_map_iff in Hr.
    destruct Hr as [y [<- Hy]]. apply Qle_Rle, H2, Hy.
Qed.

Lemma is_max_unique : forall a b l, is_max a l -> is_max b l -> a = b.
Proof.
  intros a b l [Ha Fa] [Hb Fb]. rewrite Forall_forall in Fa, Fb.
  apply Rle_antisym; [apply Fb, Ha | apply Fa, Hb].
Qed.

Lemma is_mx_Q : forall m y, is_mx (Q2R m) (Q2R y) = Qeq_bool y m.
Proof.
  intros m y. unfold is_mx. destruct (Req_EM_T (Q2R y) (Q2R m)) as [E|E].
  - symmetry. apply Qeq_bool_iff, eqR_Qeq, E.
  - symmetry. apply not_true_iff_false. intro C. apply Qeq_bool_iff, Qeq_eqR in C. contradiction.
Qed.

Lemma count_max_Q : forall m s,
  count_max (Q2R m) (map Q2R s) = length (filter (fun y => Qeq_bool y m) s).
Proof.
  intros m s. unfold count_max. induction s as [|y t IH]; [reflexivity|].
  simpl. rewrite is_mx_Q. destruct (Qeq_bool y m); simpl; lia.
Qed.

Lemma q2r_0 : Q2R 0 = 0.
Proof. unfold Q2R. simpl. field. Qed.

Lemma q2r_1 : Q2R 1 = 1.
Proof. unfold Q2R. simpl. field. Qed.

(* ---- a table of bounds e >= e^(-beta g) ---- *)

Definition exp_table_ok (beta : R) (tab : list (Q * Q)) : Prop :=
  Forall (fun ge => exp (- beta * Q2R (fst ge)) <= Q2R (snd ge)) tab.

Fixpoint lookup (tab : list (Q * Q)) (g : Q) : option Q :=
  match tab with
  | [] => None
  | (g', e) :: t => if Qeq_bool g g' then Some e else lookup t g
  end.

Lemma lookup_sound : forall beta tab g e,
  exp_table_ok beta tab -> lookup tab g = Some e -> exp (- beta * Q2R g) <= Q2R e.
Proof.
  intros beta tab g e Hok. induction tab as [|[g' e'] t IH]; simpl; [discriminate|].
  pose proof (Forall_inv Hok) as Hhead. pose proof (Forall_inv_tail Hok) as Htail.
  destruct (Qeq_bool g g') eqn:E; intro H.
  - injection H as <-. apply Qeq_bool_iff, Qeq_eqR in E. rewrite E. exact Hhead.
  - apply IH; assumption.
Qed.

(* An upper bound on X = below beta m s: each score y below the maximum m
   contributes e^(beta (y - m)) = e^(-beta (m - y)), bounded by the table's
   entry for the gap m - y; None when a gap has no entry. *)
Fixpoint bound_sum (tab : list (Q * Q)) (m : Q) (s : list Q) : option Q :=
  match s with
  | [] => Some 0%Q
  | y :: t =>
      match bound_sum tab m t with
      | None => None
      | Some r =>
          if Qeq_bool y m then Some r
          else match lookup tab (m - y)%Q with
               | None => None
               | Some e => Some (e + r)%Q
               end
      end
  end.

Lemma bound_sum_sound : forall beta tab m s X,
  exp_table_ok beta tab -> bound_sum tab m s = Some X -> below beta (Q2R m) (map Q2R s) <= Q2R X.
Proof.
  intros beta tab m s. induction s as [|y t IH]; intros X Hok H; simpl in H.
  - injection H as <-. unfold below. simpl. rewrite q2r_0. lra.
  - destruct (bound_sum tab m t) as [r|] eqn:Ht; [|discriminate].
    specialize (IH r Hok eq_refl).
    unfold below in IH |- *. simpl.
    destruct (Req_EM_T (Q2R y) (Q2R m)) as [E|E].
    + destruct (Qeq_bool y m) eqn:B.
      * injection H as <-. lra.
      * exfalso. apply eqR_Qeq in E. apply Qeq_bool_iff in E. congruence.
    + destruct (Qeq_bool y m) eqn:B.
      * exfalso. apply Qeq_bool_iff, Qeq_eqR in B. contradiction.
      * destruct (lookup tab (m - y)%Q) as [e|] eqn:L; [|discriminate].
        injection H as <-. rewrite Q2R_plus.
        pose proof (lookup_sound beta tab _ e Hok L) as He.
        rewrite Q2R_minus in He.
        replace (beta * (Q2R y - Q2R m)) with (- beta * (Q2R m - Q2R y)) by ring. lra.
Qed.

(* ---- one query ---- *)

(* The query's allowed scores s meet eps: X (1 - eps) <= eps k with X
   bounded by the table, and, for a leftmost or rightmost head (`unique`),
   one maximal position, so that its hard weight is the average-hard one
   that tv compares with. *)
Definition query_ok (tab : list (Q * Q)) (eps : Q) (unique : bool) (s : list Q) : bool :=
  match s with
  | [] => true
  | x :: t =>
      let m := qmax_from x t in
      let k := length (filter (fun y => Qeq_bool y m) s) in
      match bound_sum tab m s with
      | None => false
      | Some X => Qle_bool (X * (1 - eps)) (eps * inject_Z (Z.of_nat k))
                  && (negb unique || Nat.eqb k 1)
      end
  end.

Lemma Q2R_of_nat : forall k, Q2R (inject_Z (Z.of_nat k)) = INR k.
Proof. intros k. unfold Q2R. simpl. rewrite INR_IZR_INZ. field. Qed.

Theorem query_ok_sound : forall beta tab eps unique s mx,
  exp_table_ok beta tab -> 0 < Q2R eps < 1 -> query_ok tab eps unique s = true ->
  is_max mx (map Q2R s) ->
  tv beta mx (map Q2R s) <= Q2R eps /\ (unique = true -> count_max mx (map Q2R s) = 1%nat).
Proof.
  intros beta tab eps unique s mx Hok He Hq Hmx.
  destruct s as [|x t]; [destruct Hmx as [[] _]|].
  unfold query_ok in Hq. set (m := qmax_from x t) in Hq.
  assert (Hm : mx = Q2R m) by (eapply is_max_unique; [exact Hmx | apply qmax_is_max]).
  subst mx. rewrite count_max_Q.
  destruct (bound_sum tab m (x :: t)) as [X|] eqn:B; [|discriminate].
  apply andb_prop in Hq. destruct Hq as [Hle Hu].
  split.
  - apply (proj2 (tv_le_eps_iff beta (Q2R m) (Q2R eps) _ Hmx He)).
    pose proof (bound_sum_sound beta tab m (x :: t) X Hok B) as HX.
    apply Qle_bool_iff, Qle_Rle in Hle.
    rewrite Q2R_mult, Q2R_minus, q2r_1, Q2R_mult, Q2R_of_nat in Hle.
    rewrite count_max_Q.
    apply (Rle_trans _ (Q2R X)); [exact HX|].
    apply (Rmult_le_reg_r (1 - Q2R eps)); [lra|].
    replace (INR (length (filter (fun y => Qeq_bool y m) (x :: t))) * Q2R eps / (1 - Q2R eps)
             * (1 - Q2R eps))
      with (Q2R eps * INR (length (filter (fun y => Qeq_bool y m) (x :: t))))
      by (field; lra).
    exact Hle.
  - intro U. subst unique. simpl in Hu. apply Nat.eqb_eq. exact Hu.
Qed.

(* ---- every word up to length n ---- *)

Fixpoint words_of_len (k len : nat) : list (list nat) :=
  match len with
  | O => [[]]
  | S l => flat_map (fun w => map (fun a => a :: w) (seq 0 k)) (words_of_len k l)
  end.

Lemma words_of_len_complete : forall k w,
  Forall (fun a => (a < k)%nat) w -> In w (words_of_len k (length w)).
Proof.
  intros k w. induction w as [|a w IH]; intros H; simpl; [left; reflexivity|].
  pose proof (Forall_inv H) as Ha. pose proof (Forall_inv_tail H) as Hw.
  apply in_flat_map. exists w. split; [apply IH, Hw|].
  apply in_map_iff. exists a. split; [reflexivity | apply in_seq; simpl in Ha; lia].
Qed.

Definition words_upto (k n : nat) : list (list nat) := flat_map (words_of_len k) (seq 1 n).

Lemma words_upto_complete : forall k n w,
  (1 <= length w <= n)%nat -> Forall (fun a => (a < k)%nat) w -> In w (words_upto k n).
Proof.
  intros k n w Hl Hw. apply in_flat_map. exists (length w).
  split; [apply in_seq; lia | apply words_of_len_complete, Hw].
Qed.

(* ---- the whole instance ---- *)

(* A head: whether it is leftmost or rightmost, and its allowed scores at
   query i of word w. Queries run from `first` (0 with a BOS position, else
   1) to the word's length. *)
Definition Head := (bool * (list nat -> nat -> list Q))%type.

Definition word_ok (tab : list (Q * Q)) (eps : Q) (first : nat) (heads : list Head)
  (w : list nat) : bool :=
  forallb (fun hd => forallb (fun i => query_ok tab eps (fst hd) (snd hd w i))
                             (seq first (S (length w) - first)))
          heads.

Definition instance_ok (tab : list (Q * Q)) (eps : Q) (first k n : nat) (heads : list Head)
  : bool :=
  forallb (word_ok tab eps first heads) (words_upto k n).

Theorem instance_sound : forall beta tab eps first k n heads,
  exp_table_ok beta tab -> 0 < Q2R eps < 1 -> instance_ok tab eps first k n heads = true ->
  forall w, (1 <= length w <= n)%nat -> Forall (fun a => (a < k)%nat) w ->
  forall unique scores, In (unique, scores) heads ->
  forall i, (first <= i <= length w)%nat ->
  forall mx, is_max mx (map Q2R (scores w i)) ->
  tv beta mx (map Q2R (scores w i)) <= Q2R eps /\
  (unique = true -> count_max mx (map Q2R (scores w i)) = 1%nat).
Proof.
  intros beta tab eps first k n heads Hok He Hall w Hl Hw unique scores Hh i Hi mx Hmx.
  unfold instance_ok in Hall. rewrite forallb_forall in Hall.
  specialize (Hall w (words_upto_complete k n w Hl Hw)).
  unfold word_ok in Hall. rewrite forallb_forall in Hall.
  specialize (Hall (unique, scores) Hh). rewrite forallb_forall in Hall.
  assert (Hq : query_ok tab eps unique (scores w i) = true).
  { apply (Hall i). apply in_seq. lia. }
  eapply query_ok_sound; eauto.
Qed.
