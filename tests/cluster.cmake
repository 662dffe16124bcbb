# Slurm, for real: munged, slurmctld and slurmd on this node, a 4-shard array with one task requeued
# mid-run, and the merge job (tests/slurm_check.sh). Skipped, with the reason, where they cannot start.
if(LAYERBENCH_WITH_TORCH)
  add_test(NAME cluster/slurm COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/slurm_check.sh $<TARGET_FILE:layerbench>)
  set_tests_properties(cluster/slurm PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
