(* The axioms every main theorem rests on; tests/proofs/coq.sh compares
   this file's output with assumptions.expected. *)
From TempcertProofs Require Import Softmax.
Print Assumptions Softmax.tv_below_identity.
Print Assumptions Softmax.lemma_gt.
Print Assumptions Softmax.lemma_gt_k.
Print Assumptions Softmax.lemma_gt_beta.
Print Assumptions Softmax.uniform_scores_exact.
