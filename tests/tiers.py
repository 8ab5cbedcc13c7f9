"""The two test tiers: the whole suite (``pytest``, what CI runs) and the fast tier (``pytest -m "not slow"``).

A test is ``slow`` when it carries ``@pytest.mark.slow`` itself, lives in a file or folder of ``SLOW_PATHS``, or is
named in ``SLOW_TESTS``. The paths start ``moraine`` processes (daemons, ``moraine mcp``, ``moraine ingest``), run a
tool end to end, kill processes mid-write, or wait on ClickHouse's own background cleanup. The tests named took 3 s
or more (setup included, all parameters together) in a whole run's profile (``pytest --durations=0``, two workers
on a shared two-core machine, 2026-12-03), where most tests take milliseconds; a file all of whose tests took that
long keeps its quickest third (at least one) in the fast tier, so the fast tier still exercises every module it
tests. The whole suite runs everything. ``tests/test_tiers.py`` checks that every path and test named
here still exists, so a rename cannot quietly move a slow test into the fast tier.
"""

from __future__ import annotations

from pathlib import Path

import pytest

__all__ = ["SLOW_PATHS", "SLOW_TESTS", "TESTS", "mark_slow", "slow_files_first"]

TESTS = Path(__file__).resolve().parent

# Paths relative to tests/: a folder covers every file under it.
SLOW_PATHS = (
    "e2e",  # real MCP clients against real `moraine mcp` / daemon processes
    "bindings",  # generates and compiles bindings in other languages
    "fuzz",  # schemathesis over the HTTP facade
    "tools/test_bench.py",
    "tools/test_conformance.py",
    "tools/test_locomo.py",
    "tools/test_relevance.py",
    "harnesses/test_harnesses_e2e.py",  # every harness's fixtures through ingest and the tools (one module store)
    "moraine/redact/test_secrets_never_stored.py",  # every harness ingested in-process and by two workers
    "moraine/ingest/test_pipeline_crash.py",  # ingest processes killed mid-batch, then restarted
    "moraine/store/test_store_forget.py",  # waits for ClickHouse's cleanup to remove parts from disk
    "moraine/cli/test_cli_forget.py",  # the same wait, through the command
    "moraine/semantic/test_search_hook.py",  # loads the embedding model and embeds a corpus per module
    "issues/test_43_nothing_left_on_disk.py",  # `moraine ingest` processes in a HOME, every file searched
    "issues/test_43_small_inputs.py",  # a `moraine ingest` or `import` process per hostile input, its RSS measured
)

# Test functions (every parameter) by file, relative to tests/.
SLOW_TESTS: dict[str, tuple[str, ...]] = {
    "codegen/test_check.py": (
        "test_changing_a_schema_without_regenerating_fails_check_with_a_diff",
        "test_check_passes_on_the_committed_generated_tree_under_two_hash_seeds",
        "test_regenerating_into_a_copy_then_checking_is_clean",
    ),
    "codegen/test_golden.py": (
        "test_minimal_case_generates_the_golden_tree",
        "test_minimal_case_output_imports_and_validates",
    ),
    "codegen/test_portable.py": ("test_published_schemas_accept_exactly_what_the_spec_spelling_accepts",),
    "handlers/test_file_attention.py": ("test_one_logical_file_is_unified_across_checkout_and_worktrees",),
    "handlers/test_file_attention_unknown.py": (
        "test_absolute_query_finds_known_root_touches_by_full_path",
        "test_unknown_root_touches_match_by_suffix_and_make_the_tail_ambiguous",
    ),
    "handlers/test_list_sessions.py": (
        "test_mode_harness_and_source_filters_are_exact_and_anded",
        "test_offsets_are_honoured",
        "test_range_ending_before_it_starts_is_invalid_request",
        "test_republished_session_is_listed_once_with_its_latest_metadata",
        "test_sorted_desc_by_updated_at_then_id_and_asc_reverses",
        "test_start_is_inclusive_and_end_exclusive",
    ),
    "handlers/test_native_ids.py": ("test_open_with_a_harness_session_id_opens_that_session",),
    "handlers/test_open.py": (
        "test_cursor_goes_stale_when_the_session_is_rewritten",
        "test_id_only_session_open_is_summary_only_with_traversal",
    ),
    "handlers/test_search_sessions.py": ("test_hits_carry_event_turn_session_and_open_handles",),
    "harnesses/claude_code/test_claude_code.py": (
        "test_the_adapter_never_raises_on_wrong_types_in_any_field",
    ),
    "harnesses/codex/test_codex.py": ("test_the_adapter_never_raises_on_wrong_types_in_any_field",),
    "harnesses/hermes/test_hermes.py": (
        "test_pipeline_ingests_each_message_of_a_rewritten_session_file_exactly_once",
    ),
    "harnesses/opencode/test_opencode.py": (
        "test_ingest_of_a_database_locked_mid_write_neither_crashes_nor_loses_rows",
        "test_rows_committed_to_the_wal_are_ingested_on_the_next_pass",
    ),
    "harnesses/test_import_command.py": (
        "test_a_file_that_is_neither_export_is_refused_with_a_clear_message",
        "test_a_newer_export_of_the_same_service_replaces_the_older_ones_conversations",
    ),
    "harnesses/test_robustness.py": ("test_arbitrary_json_never_raises",),
    "harnesses/test_source_filters.py": (
        "test_list_and_open_show_harness_source_title_and_completion",
        "test_source_filter_finds_its_planted_keyword_and_nothing_else",
    ),
    "harnesses/test_token_usage.py": (
        "test_codex_token_count_usage_is_stored_on_its_event",
        "test_events_carry_usage_exactly_where_expect_json_says_the_traces_record_it",
    ),
    "issues/test_33_sql_only_in_the_store.py": ("test_no_module_outside_the_store_writes_clickhouse_sql",),
    "moraine/cli/test_found_agents.py": (
        "test_doctor_names_the_folder_that_yields_nothing_with_its_first_errors",
        "test_status_lists_the_agents_found_here_with_their_session_counts",
        "test_status_says_when_no_known_agent_folder_exists",
        "test_the_daemon_status_report_carries_the_agents_found",
    ),
    "moraine/cli/test_ingest.py": (
        "test_ingest_indexes_the_sources_and_a_second_run_adds_nothing",
        "test_ingest_of_a_path_outside_every_source_asks_for_source",
        "test_ingest_of_explicit_paths_assigns_them_to_the_source_whose_glob_matches",
        "test_status_prints_counts_coverage_and_recent_errors",
    ),
    "moraine/cli/test_tools.py": (
        "test_a_bad_argument_combination_is_the_tools_invalid_request",
        "test_a_time_that_is_neither_rfc3339_nor_a_duration_is_a_usage_error",
        "test_an_empty_window_says_how_much_history_there_is_and_how_to_widen_it",
        "test_an_error_envelope_exits_1_with_its_message",
        "test_an_unknown_harness_is_refused_naming_the_harnesses_that_exist",
        "test_export_writes_the_transcript_and_refuses_an_event",
        "test_files_shows_the_sessions_that_touched_a_path",
        "test_open_of_a_session_lists_its_turns_without_a_limit",
        "test_open_of_an_event_prints_its_full_content",
        "test_open_pages_a_session_with_limit_then_the_printed_cursor",
        "test_search_filters_by_event_type_and_within_a_session",
        "test_search_prints_ranked_hits_and_json_is_the_tools_envelope",
        "test_sessions_lists_the_window_and_json_is_the_tools_envelope",
        "test_sessions_prints_a_next_page_command_with_the_window_spelled_out",
        "test_sessions_takes_years_months_and_dates_and_defaults_to_any_time",
        "test_the_search_table_names_each_hits_session",
    ),
    "moraine/daemon/test_runner.py": (
        "test_a_cancelled_tag_lets_no_further_statement_start",
        "test_a_facade_call_whose_client_disconnects_kills_its_query_and_frees_its_slot",
        "test_a_full_queue_answers_a_valid_busy_envelope",
        "test_cancelling_a_call_kills_its_running_query_and_frees_its_slot",
        "test_each_call_sees_the_launch_dir_it_was_given",
    ),
    "moraine/export/test_export.py": (
        "test_a_bad_id_fails_with_the_tool_error",
        "test_a_session_exports_as_its_golden_transcript_with_the_planted_secrets_redacted",
        "test_a_turn_exports_alone_under_its_session_title",
        "test_paging_one_item_at_a_time_gives_the_same_transcript",
        "test_text_that_looks_like_markup_is_escaped_in_html",
        "test_text_that_looks_like_markup_is_escaped_in_markdown",
        "test_the_web_route_sends_the_transcript_as_an_attachment_and_errors_with_their_status",
    ),
    "moraine/ingest/test_pipeline.py": (
        "test_a_store_failure_mid_publish_is_recovered_by_the_next_pass_of_the_same_ingestor",
        "test_batch_size_does_not_change_the_rows",
        "test_doc_len_and_postings_agree_with_doc_stats",
        "test_rerunning_ingest_adds_no_rows",
        "test_session_info_before_events_and_parent_sessions_are_kept",
        "test_the_same_session_in_two_files_gets_separate_keys",
        "test_tool_calls_are_findable_by_their_argument_values",
        "test_truncated_and_rewritten_file_yields_the_new_content_exactly_once",
    ),
    "moraine/ingest/test_pipeline_newest_first.py": (
        "test_the_newest_file_is_committed_first_and_progress_counts_every_file",
    ),
    "moraine/ingest/test_pipeline_robustness.py": (
        "test_adapter_failures_and_ill_typed_items_become_ingest_errors",
        "test_garbage_files_are_reported_and_skipped_while_other_files_ingest_fully",
        "test_planted_secrets_are_absent_from_every_table",
        "test_redaction_can_be_turned_off",
    ),
    "moraine/ingest/test_turn_completion.py": (
        "test_a_last_answer_written_moments_ago_is_not_yet_final",
        "test_a_running_last_turn_stays_in_progress_without_an_invented_final_response",
        "test_every_answered_turn_of_a_null_stop_transcript_is_completed_with_its_final_response",
    ),
    "moraine/ingest/test_workers.py": (
        "test_a_second_pass_over_appended_and_rewritten_files_matches_in_process",
        "test_a_session_in_two_files_read_by_two_workers_is_keyed_as_in_process",
        "test_a_worker_killed_mid_pass_is_an_ingest_error_and_the_next_pass_keeps_every_event_once",
        "test_workers_write_the_same_rows_as_an_in_process_pass",
    ),
    "moraine/mirror/test_sync.py": (
        "test_a_copy_interrupted_before_its_watermark_moved_is_redone_without_duplicates",
        "test_a_remote_taken_away_mid_ingest_catches_up_with_every_routed_event_once",
        "test_mirroring_delivers_exactly_the_routed_sessions_redacted",
    ),
    "moraine/projects/test_floor.py": (
        "test_ingest_records_each_sessions_project_and_the_floor_keeps_only_its_own",
    ),
    "moraine/semantic/test_service.py": (
        "test_start_fills_the_handlers_ranker_holder_and_shutdown_empties_it",
    ),
    "moraine/semantic/test_vectorizer.py": (
        "test_events_appended_after_a_pass_are_embedded_by_the_next_and_only_they",
        "test_nearest_neighbours_apply_the_type_and_source_filters",
        "test_passes_cut_short_resume_where_the_watermark_left_off",
        "test_the_background_vectorizer_embeds_then_stops_when_asked",
        "test_the_backlog_is_embedded_newest_session_first",
    ),
    "moraine/server/test_tool_service.py": (
        "test_handler_runs_off_the_event_loop_thread",
        "test_moraine_errors_keep_their_code_message_and_details",
        "test_response_failing_its_schema_becomes_internal_error_and_is_not_sent",
        "test_service_requires_exactly_the_spec_tools",
        "test_unexpected_exception_is_a_concise_logged_internal_error",
        "test_unknown_tool_is_an_in_band_invalid_request",
    ),
    "moraine/store/reads/test_search.py": (
        "test_camel_case_identifier_query_ranks_the_event_naming_it_first",
        "test_scores_are_bm25_for_one_term_and_several_and_follow_new_writes",
    ),
    "moraine/store/reads/test_search_ranking.py": (
        "test_session_evidence_never_changes_a_search_within_one_session",
        "test_the_short_session_that_did_the_work_outranks_a_marathon",
    ),
    "moraine/store/test_http_path.py": ("test_ingest_append_rewrite_and_rerun_over_http",),
    "moraine/store/test_lease.py": (
        "test_a_held_lease_is_refused_to_a_second_contender_until_it_is_released",
        "test_an_expired_lease_is_taken_over_and_its_old_holder_learns_it_on_renewal",
        "test_migrations_take_and_release_the_lease_and_an_up_to_date_store_leaves_it_alone",
        "test_two_contenders_claiming_the_same_generation_get_one_winner",
    ),
    "moraine/store/test_limits.py": (
        "test_a_limit_of_zero_is_left_to_the_server",
        "test_a_tool_call_over_the_memory_limit_returns_resource_exhausted",
        "test_a_write_over_the_memory_limit_is_resource_exhausted",
        "test_every_statement_runs_under_the_default_limits",
    ),
    "moraine/store/test_migration_postings_layout.py": (
        "test_a_copy_killed_half_way_resumes_from_its_finished_slices_and_ends_with_every_row_once",
    ),
    "moraine/store/test_migrations.py": (
        "test_event_usage_columns_are_added_to_a_store_that_has_rows",
        "test_session_lengths_come_from_the_projection_and_survive_a_recovery_delete",
        "test_vector_granules_keep_every_vector_and_the_nearest_search",
    ),
    "spec/test_examples.py": ("test_jsonschema_and_the_fast_validator_agree_on_arbitrary_arguments",),
    "tools/test_corpus.py": ("test_same_seed_writes_the_same_bytes",),
}

_SLOW_PATHS = tuple(TESTS / path for path in SLOW_PATHS)
_SLOW_TESTS = {TESTS / path: set(names) for path, names in SLOW_TESTS.items()}


def mark_slow(items: list[pytest.Item]) -> None:
    """Add the ``slow`` mark to every collected test under ``SLOW_PATHS`` or named in ``SLOW_TESTS``."""
    for item in items:
        name = getattr(item, "originalname", item.name)
        if name in _SLOW_TESTS.get(item.path, ()) or _in_slow_path(item):
            item.add_marker(pytest.mark.slow)


def _in_slow_path(item: pytest.Item) -> bool:
    return any(item.path == path or path in item.path.parents for path in _SLOW_PATHS)


def slow_files_first(items: list[pytest.Item]) -> None:
    """Move the tests of the files under ``SLOW_PATHS`` ahead of the rest, each file's tests kept together and in
    order: the workers (``--dist loadfile`` hands out files in this order) start on the long files, and the short
    ones fill the end, instead of one worker finishing the bench alone while the other waits."""
    items.sort(key=lambda item: not _in_slow_path(item))
