(* The axioms the main theorems rest on, all of them at once (one traversal
   of the dependency graph instead of one per theorem: 10 s -> about 1 s);
   tests/proofs/coq.sh compares the output with assumptions.expected. A
   theorem that used any other axiom would add it to this list. *)
From TempcertProofs Require Softmax Profile CheckerBound Perturbation HeadOutput
  RatioBound Spread Layerwise FeedForward ScoreDeviation Instance Offsets ValueBound
  CountLattice LayerwiseInduction WorstChoice Maxima AffineOffsets FirstLayer
  SoftmaxEnclosure Forms.

Definition main_theorems :=
  (Softmax.tv_below_identity, Softmax.lemma_gt, Softmax.lemma_gt_k, Softmax.lemma_gt_beta,
   Softmax.uniform_scores_exact, Profile.tv_le_eps_iff, Profile.below_antitone,
   Profile.tv_antitone, Profile.below_strict, Profile.profile_threshold_upper, Profile.threshold_exists, Profile.query_threshold,
   Profile.tight_is_max_threshold, CheckerBound.tvs_positive_part,
   CheckerBound.ps_lower, CheckerBound.checker_tv_bound,
   Perturbation.weight_outside_bound, Perturbation.tv_triangle, HeadOutput.positive_part_is_tv,
   HeadOutput.head_output_moves, RatioBound.ratio_algebra, RatioBound.ratio_tv_bound,
   RatioBound.tanh_form, Spread.class_sum, Spread.spread_sum,
   Spread.progression_sum, Spread.class_positions_sum, Spread.spread_positions,
   Spread.segment_sum, Spread.weight_sum_sub, Layerwise.preact_moves,
   Layerwise.unit_keeps_phase, Layerwise.relu_deviation, FeedForward.sublayer_deviation, ScoreDeviation.coord_deviation,
   ScoreDeviation.score_deviation, Instance.query_ok_sound, Instance.instance_sound,
   Offsets.sum_nodup_incl, Offsets.position_weights_in_offsets, ValueBound.box_sum,
   ValueBound.row_magnitude, ValueBound.value_set_magnitude, CountLattice.sum_on_lattice,
   CountLattice.numerator_on_lattice, CountLattice.sum_in_range,
   CountLattice.combination_on_lattice, CountLattice.lattice_nearest,
   CountLattice.lattice_left_side, CountLattice.lattice_right_side,
   LayerwiseInduction.layerwise_induction, LayerwiseInduction.affine_untainted,
   LayerwiseInduction.layer_step, LayerwiseInduction.heads_add_moves,
   WorstChoice.choice_leaves_holder, WorstChoice.frac_dominated,
   WorstChoice.worst_single_holder, WorstChoice.worst_forced, WorstChoice.worst_threshold,
   Maxima.maximum_at_least_L, Maxima.gap_at_least_runner_up,
   AffineOffsets.least_positive_up, AffineOffsets.least_positive_down,
   AffineOffsets.chosen_offset_up, FirstLayer.word_scores_are_offers,
   FirstLayer.every_word_from_every_choice, SoftmaxEnclosure.share_lower,
   SoftmaxEnclosure.share_upper, SoftmaxEnclosure.uniform_deviation,
   SoftmaxEnclosure.exp_difference, Forms.sqrt_square_factor, Forms.sqrt_of_quotient,
   Forms.sqrt_times_itself).

Print Assumptions main_theorems.
