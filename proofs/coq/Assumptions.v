(* The axioms every main theorem rests on; tests/proofs/coq.sh compares
   this file's output with assumptions.expected. *)
From TempcertProofs Require Import Softmax.
Print Assumptions Softmax.tv_below_identity.
Print Assumptions Softmax.lemma_gt.
Print Assumptions Softmax.lemma_gt_k.
Print Assumptions Softmax.lemma_gt_beta.
Print Assumptions Softmax.uniform_scores_exact.
From TempcertProofs Require Import Profile.
Print Assumptions Profile.tv_le_eps_iff.
Print Assumptions Profile.below_antitone.
Print Assumptions Profile.tv_antitone.
Print Assumptions Profile.profile_threshold_upper.
From TempcertProofs Require Import CheckerBound.
Print Assumptions CheckerBound.tvs_positive_part.
Print Assumptions CheckerBound.ps_lower.
Print Assumptions CheckerBound.checker_tv_bound.
