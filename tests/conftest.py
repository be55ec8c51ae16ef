"""Shared fixtures: the standard book compiled once per test session (its own engine, outside the cache),
the service on each database with a test client (svc, client), the podium's browser tests' server, Chromium
and page (server, browser, page); and the slow tests marked ``slow``.

``pytest -m "not slow"`` runs the fast part (under three minutes on two cores); CI's ``scripts/test`` runs
everything. A test is slow when it drives Chromium, starts served processes, or rules on every example of
the book under several books (SLOW below, by file or by test; a test may also mark itself).
"""
from __future__ import annotations

import os

import pytest

# A house-book check is ended after RULINGS_CHECK_SECONDS (120 s by default) in its checking process, which
# runs at a lower priority: on a host busy with other work (two test processes, Chromium, servers, another
# user's jobs) a check of a whole book that takes 30 s of CPU was stopped at 120 s and the test failed on the
# host's load. The tests give checks longer; the limit itself is tested where it is set (test_service_flood,
# test_settings).
os.environ.setdefault("RULINGS_CHECK_SECONDS", "1800")

from rulings.engine.rulesets import Engine
from service_support import BACKENDS, make_service
from rulings.rulebook.load import standard_book


@pytest.fixture(scope="session")
def standard():
    book = standard_book()
    return book, Engine(book)


@pytest.fixture(params=BACKENDS)
def svc(request, tmp_path):
    """A service with its four accounts, on SQLite and on a throw-away PostgreSQL."""
    service = make_service(tmp_path, request.param)
    yield service
    service.close()


@pytest.fixture
def client(svc):
    """A test client of the service on ``svc``; server errors come back as responses."""
    with __import__("warnings").catch_warnings():    # starlette asks for httpx2, which is not needed here
        __import__("warnings").simplefilter("ignore")
        from starlette.testclient import TestClient
    from rulings.service.api.app import create_app
    with TestClient(create_app(service=svc), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def server(request, tmp_path_factory):
    """The podium's service on a loopback port for one browser test module (tests/podium_browser.py's Server):
    the module's ``SERVER_CONFIG`` (Config's keywords) and ``SERVER_ACCOUNTS`` ((name, password, role, room),
    added before it starts) if it has them, then its ``server_started(srv)`` if it has one."""
    from podium_browser import Server
    from rulings.service.store.auth import add_account
    module = request.module
    name = module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    srv = Server(tmp_path_factory.mktemp(f"{name}-data"), **getattr(module, "SERVER_CONFIG", {}))
    for account in getattr(module, "SERVER_ACCOUNTS", ()):
        add_account(srv.service.engine, *account)
    srv.start()
    try:
        if hasattr(module, "server_started"):
            module.server_started(srv)
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def browser():
    """The system's Chromium, headless, one per browser test module."""
    from podium_browser import chromium
    with chromium() as b:
        yield b


@pytest.fixture
def page(request, browser):
    """A page of its own on ``browser``, with the module's ``PAGE_OPTIONS`` (a landscape tablet if it has none);
    a JavaScript error on it fails the test."""
    from podium_browser import TABLET, watched_page
    with watched_page(browser, **getattr(request.module, "PAGE_OPTIONS", {"viewport": TABLET})) as pg:
        yield pg


# The slow tests (``file::name``, every parameter of it), each with the seconds it (its slowest parameter)
# took in a suite run (`pytest -n 2 --durations=0`, two cores at a load of 5-10): 3 s or more (3.5 s or more
# in a run of the fast part alone). Kept here rather than in each file, so that marking a test never touches
# a file another change edits; tests/test_layout.py checks that every name here is still a test.
SLOW: dict[str, int] = {
    "tests/test_batch.py::test_jobs_keep_the_order_and_the_reports": 16,
    "tests/test_betting_oracle.py::test_betting_arithmetic_agrees_with_pokerkit": 3,
    "tests/test_blinds_unknown.py::test_blinds_trials_told_alike_change_no_report_and_both_paths_are_taken": 19,
    "tests/test_book_for.py::test_an_incident_naming_its_house_is_ruled_under_it_however_it_is_sent": 3,
    "tests/test_book_for.py::test_the_command_line_batch_ask_and_the_api_choose_the_same_book": 6,
    "tests/test_bookcache.py::test_a_cached_compiled_form_rules_as_a_fresh_compile_and_compiles_nothing": 3,
    "tests/test_bookcache.py::test_a_corrupt_cache_file_is_refused_then_rebuilt": 5,
    "tests/test_bookcache.py::test_a_damaged_or_planted_compiled_form_is_compiled_again": 19,
    "tests/test_bookcache.py::test_any_change_to_a_book_file_misses_the_cache": 8,
    "tests/test_bookcache.py::test_books_load_compiles_one_engine_from_many_threads": 4,
    "tests/test_bookcache.py::test_the_cache_is_written_once_and_read_back": 5,
    "tests/test_bookcache.py::test_the_same_books_in_two_places_share_one_entry_and_each_gets_its_own_files": 5,
    "tests/test_bookcache.py::test_two_processes_with_an_empty_then_a_read_only_cache_folder": 8,
    "tests/test_citation_fit.py::test_every_example_is_quoted_first_by_a_source_for_its_game": 48,
    "tests/test_citation_fit.py::test_every_key_says_where_it_applies": 4,
    "tests/test_cli.py::test_lint_test_explain_rules": 16,
    "tests/test_cli.py::test_no_output_carries_an_absolute_path_of_the_install": 64,
    "tests/test_consult.py::test_answers_told_alike_give_the_very_step_ruling_every_answer_gives": 18,
    "tests/test_data_folder.py::test_serve_says_where_its_data_is_at_start": 3,
    "tests/test_data_folder.py::test_the_data_folder_is_in_the_users_data_directory_wherever_the_command_starts": 8,
    "tests/test_data_folder.py::test_xdg_data_home_then_rulings_data_then_data_choose_it": 7,
    "tests/test_diff_kept.py::test_a_book_whose_settings_change_is_ruled_on_again_and_a_book_gone_is_forgotten": 16,
    "tests/test_diff_kept.py::test_a_publish_after_its_check_is_answered_from_the_check": 120,
    "tests/test_diff_kept.py::test_a_publish_s_failures_are_the_full_check_s_failing_outcomes": 26,
    "tests/test_diff_kept.py::test_the_same_diff_twice_rules_on_nothing_the_second_time_and_says_the_same": 11,
    "tests/test_diff_kept.py::test_what_is_kept_is_what_working_it_out_afresh_gives": 7,
    "tests/test_engine.py::test_280_rules_firing_on_one_incident_over_several_rulesets": 4,
    "tests/test_engine.py::test_a_2000_rule_book_loads_lints_and_rules_in_a_child_process": 16,
    "tests/test_engine.py::test_a_split_book_rules_as_one_ruleset_would": 102,
    "tests/test_engine.py::test_books_past_64_rules_do_not_crash_durable": 6,
    "tests/test_engine.py::test_every_example_says_the_same_with_sentence_plans_as_with_jinja2_alone": 22,
    "tests/test_engine.py::test_no_book_the_loader_accepts_crashes_the_engine": 18,
    "tests/test_engine.py::test_random_incidents_over_the_whole_book_rule_or_are_refused": 14,
    "tests/test_engine.py::test_reload_frees_old_rulesets": 20,
    "tests/test_engine.py::test_stress_20000_random_pot_limit_incidents_memory_flat": 61,
    "tests/test_engine.py::test_the_facts_a_report_says_were_not_weighed_come_from_the_compiled_form_as_from_the_rules": 4,
    "tests/test_engine.py::test_the_pre_check_lets_through_every_rule_durable_rules_matches": 65,
    "tests/test_every_act.py::test_a_consultation_asks_the_questions_of_every_act": 4,
    "tests/test_every_act.py::test_rulings_ask_asks_each_act_and_writes_the_answer_into_that_act": 5,
    "tests/test_floor.py::test_every_example_without_a_sized_wager_says_its_ruling_first": 7,
    "tests/test_fuzz.py::test_every_case_gives_a_report_or_a_refusal_with_a_code": 17,
    "tests/test_fuzz.py::test_no_case_hangs": 26,
    "tests/test_guides.py::test_the_guides_checks_fail_when_a_step_is_skipped": 4,
    "tests/test_hostile_input.py::test_a_468_byte_alias_bomb_is_refused_before_any_expansion": 4,
    "tests/test_hostile_input.py::test_every_hostile_file_stays_within_memory": 5,
    "tests/test_house.py::test_bad_house_book_is_refused_whole": 4,
    "tests/test_house.py::test_test_house_fails_a_change_the_house_did_not_declare": 16,
    "tests/test_house.py::test_test_house_reports_changes_by_the_house_not_failures": 62,
    "tests/test_house_books.py::test_house_book_examples_pass_and_standard_changes_are_the_houses": 18,
    "tests/test_house_changes_agree.py::test_test_and_diff_name_the_same_examples_and_causes": 61,
    "tests/test_house_docs.py::test_book_escapes_html_in_house_text": 9,
    "tests/test_house_docs.py::test_book_html_is_self_contained_and_printable": 6,
    "tests/test_house_docs.py::test_book_quotes_sources_as_reports_do_with_the_keys_for_staff": 4,
    "tests/test_house_limits.py::test_every_condition_expression_lint_accepts_compiles_and_agrees_with_python": 57,
    "tests/test_house_limits.py::test_every_expression_the_whitelist_accepts_compiles": 7,
    "tests/test_house_limits.py::test_lint_refuses_what_the_engine_cannot_bear": 21,
    "tests/test_house_limits.py::test_memory_stays_bounded": 21,
    "tests/test_house_refusals.py::test_a_house_key_no_book_describes_is_a_warning_naming_the_keys_it_does": 4,
    "tests/test_house_refusals.py::test_a_value_out_of_its_kind_at_rule_time_is_never_read_out": 8,
    "tests/test_house_refusals.py::test_adding_a_manager_without_a_terminal_is_a_usage_error_not_a_bug": 4,
    "tests/test_house_refusals.py::test_an_entry_that_is_no_rule_hides_no_other": 5,
    "tests/test_house_refusals.py::test_values_are_written_back_as_yaml_not_as_python": 4,
    "tests/test_house_reload.py::test_reload_closes_the_old_engine_and_serves_the_edited_book": 5,
    "tests/test_house_reload.py::test_reloading_a_house_book_200_times_keeps_memory_flat": 58,
    "tests/test_house_schema.py::test_every_rulebook_file_validates": 3,
    "tests/test_incident_reader.py::test_the_graph_sees_imports_inside_functions_and_type_checking": 3,
    "tests/test_incident_reader.py::test_the_readers_final_table_is_a_fresh_replay_of_the_hand": 5,
    "tests/test_incident_reader.py::test_the_rulings_modules_import_no_cycle": 4,
    "tests/test_install.py::test_the_wheel_carries_every_file_of_the_package": 41,
    "tests/test_install.py::test_the_wheel_carries_the_books_and_nothing_generic": 28,
    "tests/test_install.py::test_version_module_entry_and_lint_work_installed": 4,
    "tests/test_invariants.py::test_every_example_of_the_book_holds_every_invariant": 29,
    "tests/test_invariants.py::test_generated_incidents_hold_every_invariant_under_every_book": 18,
    "tests/test_layout.py::test_durable_rules_is_imported_only_inside_the_engine_folder": 5,
    "tests/test_layout.py::test_only_the_engine_module_imports_durable_rules": 3,
    "tests/test_layout.py::test_only_the_named_modules_import_the_web_framework": 28,
    "tests/test_layout.py::test_only_the_store_imports_sqlalchemy": 4,
    "tests/test_layout.py::test_the_betting_arithmetic_imports_no_engine_yaml_or_templates": 4,
    "tests/test_lint_golden.py::test_a_topic_file_with_five_mistakes_is_refused_once_naming_all_five": 9,
    "tests/test_lint_golden.py::test_lint_golden": 11,
    "tests/test_lint_paths.py::test_a_folder_of_broken_books_fails_and_lists_every_problem": 5,
    "tests/test_lint_paths.py::test_an_edited_copy_of_a_standard_topic_is_checked_in_its_place": 13,
    "tests/test_lint_paths.py::test_good_books_in_any_folder_pass_and_are_counted": 4,
    "tests/test_next_options.py::test_every_example_that_leaves_a_seat_to_act_says_what_he_may_do": 32,
    "tests/test_params_one_place.py::test_grep_finds_no_python_default_for_a_book_parameter": 4,
    "tests/test_params_one_place.py::test_two_parameters_supplying_one_attribute_are_refused": 4,
    "tests/test_phrases.py::test_every_phrase_in_pot_limit_is_ruled_within_the_maximum": 10,
    "tests/test_phrases.py::test_no_phrase_is_ruled_above_the_stack_or_two_ways": 4,
    "tests/test_podium_accounts.py::test_the_service_keeps_an_admin_who_can_log_in": 6,
    "tests/test_podium_browser.py::test_a_consultation_asks_only_what_changes_its_ruling": 4,
    "tests/test_podium_browser.py::test_a_manager_halves_the_kill_sees_the_diff_publishes_and_the_next_kill_is_half": 124,
    "tests/test_podium_browser.py::test_every_control_is_labelled_text_has_aa_contrast_and_state_is_not_colour_alone": 10,
    "tests/test_podium_browser.py::test_floor_shorthand_on_the_form_and_a_wrong_action_keep_everything_typed": 3,
    "tests/test_podium_browser.py::test_logging_in": 6,
    "tests/test_podium_browser.py::test_on_a_phone_the_ruling_swapped_in_is_shown_from_its_top": 6,
    "tests/test_podium_browser.py::test_recording_the_decision_and_finding_it_in_the_log": 6,
    "tests/test_podium_browser.py::test_ruling_on_the_pot_limit_example_from_an_empty_page_takes_11_taps": 8,
    "tests/test_podium_browser.py::test_text_with_html_in_it_is_shown_as_text": 4,
    "tests/test_podium_browser.py::test_the_500_chip_into_an_80_pot_reads_as_an_80_bet_with_420_back": 3,
    "tests/test_podium_browser.py::test_the_floor_page_works_with_the_keyboard_alone": 6,
    "tests/test_podium_browser.py::test_the_kill_page_keeps_its_consultation_steps_as_the_floor_page_does": 3,
    "tests/test_podium_browser.py::test_the_ruling_shows_before_the_questions_are_worked_out_and_nothing_is_logged_twice": 4,
    "tests/test_podium_disputes.py::test_a_dispute_reaches_a_logged_ruling_in_10_taps": 8,
    "tests/test_podium_disputes.py::test_a_ruling_that_hangs_on_the_pot_is_shown_with_each_answer_and_never_logged": 8,
    "tests/test_podium_disputes.py::test_every_example_that_fits_the_form_says_what_happens_now_as_the_command_line_does": 49,
    "tests/test_podium_earlier.py::test_a_log_entry_shows_the_rulings_before_it_and_a_search_for_more": 4,
    "tests/test_podium_earlier.py::test_beside_a_ruling_only_earlier_rulings_with_the_same_decisive_facts": 4,
    "tests/test_podium_earlier.py::test_in_chromium_a_new_consultation_shows_the_earlier_shifts_rulings_beside_it": 11,
    "tests/test_podium_earlier.py::test_the_floor_page_shows_the_rooms_earlier_rulings_beside_the_new_one": 3,
    "tests/test_podium_earlier.py::test_the_kill_page_shows_the_rooms_earlier_kill_rulings_beside_its_own": 9,
    "tests/test_podium_earlier.py::test_the_log_page_searches_by_rule_or_citation_key_and_matter": 4,
    "tests/test_podium_floor.py::test_actions_after_the_disputed_act_reach_the_ruling": 4,
    "tests/test_podium_floor.py::test_an_ordinary_dispute_is_logged_in_at_most_12_taps": 11,
    "tests/test_podium_floor.py::test_no_page_runs_off_the_side_at_a_phone_an_upright_tablet_or_a_landscape_one": 127,
    "tests/test_podium_floor.py::test_times_are_on_the_rooms_clock_with_its_abbreviation": 6,
    "tests/test_podium_floor.py::test_what_happens_now_names_who_acts_next_and_what_he_faces": 5,
    "tests/test_podium_fuzz.py::test_every_podium_form_posted_with_wrong_values_answers_without_a_server_error": 10,
    "tests/test_podium_housebook.py::test_a_draft_citing_an_undescribed_house_key_checks_ok_with_the_warning_apart": 120,
    "tests/test_podium_housebook.py::test_a_draft_whose_own_example_fails_is_not_published": 120,
    "tests/test_podium_housebook.py::test_a_draft_with_a_bad_value_is_refused_at_its_line_and_never_goes_live": 11,
    "tests/test_podium_housebook.py::test_a_half_kill_draft_checks_clean_and_its_diff_shows_the_40_dollar_kill_become_30": 120,
    "tests/test_podium_housebook.py::test_publishing_keeps_every_version_and_the_live_one_is_the_last": 240,
    "tests/test_podium_housebook.py::test_the_diff_against_standard_is_grouped_by_cause": 120,
    "tests/test_podium_housebook.py::test_the_editor_names_the_book_s_own_file_never_the_server_s_folders": 112,
    "tests/test_podium_manager_browser.py::test_an_admin_adds_and_disables_an_account_from_a_phone": 7,
    "tests/test_podium_manager_browser.py::test_no_manager_page_overflows_sideways_on_a_phone_or_an_upright_tablet": 16,
    "tests/test_podium_manager_browser.py::test_the_diff_page_is_grouped_by_cause_collapsed_and_a_few_screens_tall": 128,
    "tests/test_podium_manager_browser.py::test_the_editor_keeps_the_yaml_s_indentation_and_shows_warnings_apart": 15,
    "tests/test_podium_pages.py::test_a_broken_draft_is_not_published_and_says_where": 8,
    "tests/test_podium_pages.py::test_a_drafts_extends_with_a_nul_or_300_characters_is_refused_on_the_page": 7,
    "tests/test_podium_pages.py::test_a_manager_creates_a_room_book_and_the_floor_rules_with_it": 69,
    "tests/test_podium_pages.py::test_the_overchip_is_recorded_and_a_departure_needs_a_reason": 4,
    "tests/test_podium_pages.py::test_the_page_says_what_happens_now_as_the_command_line_does": 6,
    "tests/test_questions_matter.py::test_every_question_an_example_asks_has_answers_that_rule_differently": 14,
    "tests/test_report_snapshot.py::test_reports_do_not_depend_on_the_hash_seed": 110,
    "tests/test_report_snapshot.py::test_reports_match_the_snapshot": 88,
    "tests/test_rulebook.py::test_citation_catalogue_round_trips_through_the_refresh_script": 6,
    "tests/test_rulebook_language.py::test_the_change_is_worked_out_once_from_what_was_put_out": 18,
    "tests/test_service.py::test_a_date_filter_counts_the_rooms_days_not_utc_days": 4,
    "tests/test_service.py::test_a_house_book_published_elsewhere_is_served_on_the_next_request": 4,
    "tests/test_service.py::test_roles": 6,
    "tests/test_service.py::test_rule_records_everything_the_log_keeps": 6,
    "tests/test_service_bad_input.py::test_a_house_book_whose_sentence_holds_a_nul_is_never_published": 5,
    "tests/test_service_bad_input.py::test_incident_problems_are_all_given_as_the_cli_gives_them": 5,
    "tests/test_service_bad_input.py::test_paging_numbers_are_ascii_whole_numbers_in_range": 7,
    "tests/test_service_bad_input.py::test_random_wrong_values_are_refused_or_ruled_never_a_server_error": 5,
    "tests/test_service_chain.py::test_a_chain_of_two_servers_behind_nginx": 128,
    "tests/test_service_chain_books.py::test_a_single_hosts_published_books_are_imported_into_the_chain": 7,
    "tests/test_service_chain_books.py::test_a_version_published_while_the_watcher_was_cut_off_comes_in_force_when_it_is_back": 4,
    "tests/test_service_chain_books.py::test_a_version_stored_by_one_service_is_in_force_on_another_and_recorded_with_each_ruling": 8,
    "tests/test_service_chain_books.py::test_the_csrf_secret_and_the_kill_tables_are_the_chains": 6,
    "tests/test_service_chain_books.py::test_two_servers_publishing_at_once_each_get_a_version_of_their_own": 3,
    "tests/test_service_durability.py::test_sigkill_loses_no_acknowledged_ruling": 43,
    "tests/test_service_earlier.py::test_a_new_ruling_shows_the_rooms_earlier_ones_newest_first": 4,
    "tests/test_service_earlier.py::test_the_keys_cannot_be_changed": 6,
    "tests/test_service_flood.py::test_a_check_that_does_not_end_is_stopped_at_its_limit_and_never_delays_the_floor": 23,
    "tests/test_service_flood.py::test_a_floor_tablet_is_answered_promptly_through_a_login_flood_and_a_half_open_flood": 49,
    "tests/test_service_flood.py::test_bodies_abandoned_on_the_way_leave_no_traceback_in_the_log": 20,
    "tests/test_service_flood.py::test_half_open_connections_from_many_addresses_make_way_for_the_floor_and_its_reserve": 12,
    "tests/test_service_flood.py::test_x_forwarded_for_is_believed_only_from_a_trusted_proxy": 30,
    "tests/test_service_rooms.py::test_a_manager_sees_the_same_dispute_in_every_room_a_floor_account_only_its_own": 3,
    "tests/test_service_rooms.py::test_a_manager_whose_room_has_a_book_changes_only_that_book": 5,
    "tests/test_service_security.py::test_a_200_mb_form_is_refused_without_the_server_growing": 16,
    "tests/test_service_security.py::test_a_body_that_never_comes_is_answered_408_and_the_connection_ended": 3,
    "tests/test_service_security.py::test_a_deep_line_in_a_jsonl_batch_is_one_refusal_and_the_later_lines_are_ruled": 3,
    "tests/test_service_security.py::test_a_deep_phh_file_and_a_loop_of_links_are_refusals": 12,
    "tests/test_service_security.py::test_a_draft_over_256_kib_is_refused_as_too_large": 3,
    "tests/test_service_security.py::test_a_forged_publish_with_a_managers_session_is_refused": 120,
    "tests/test_service_security.py::test_a_log_that_already_holds_a_request_id_twice_is_upgraded_and_answers_with_the_first": 3,
    "tests/test_service_security.py::test_a_login_form_from_elsewhere_does_not_log_the_browser_in": 4,
    "tests/test_service_security.py::test_a_nul_or_other_control_character_is_refused_alike_on_both_databases": 5,
    "tests/test_service_security.py::test_a_retried_request_id_returns_the_first_record_and_is_recorded_once": 5,
    "tests/test_service_security.py::test_csv_cells_that_a_spreadsheet_would_compute_are_written_as_text": 4,
    "tests/test_service_security.py::test_deep_json_is_a_4xx_on_every_json_route": 5,
    "tests/test_service_security.py::test_every_podium_form_carries_the_token_and_a_forged_decision_is_not_recorded": 4,
    "tests/test_service_security.py::test_fresh_names_from_one_address_are_held_before_any_hash_and_a_podium_elsewhere_logs_in": 9,
    "tests/test_service_security.py::test_half_sent_requests_are_ended_and_one_address_cannot_hold_every_connection": 3,
    "tests/test_service_security.py::test_health_is_answered_again_and_again_while_a_manager_checks_a_house_book": 81,
    "tests/test_service_security.py::test_wrong_passwords_from_one_address_do_not_lock_the_account_elsewhere": 5,
    "tests/test_service_warm.py::test_warm_up_loads_the_evaluator_before_any_ruling": 7,
    "tests/test_service_workers.py::test_a_logout_reaches_every_worker_within_the_stated_bound": 24,
    "tests/test_service_workers.py::test_connections_opened_together_are_shared_between_the_workers": 21,
    "tests/test_service_workers.py::test_the_login_limit_holds_across_workers": 47,
    "tests/test_service_workers.py::test_the_workers_end_when_the_supervisor_is_killed_outright": 18,
    "tests/test_shipped_book.py::test_a_damaged_or_planted_compiled_part_is_compiled_again_and_runs_nothing": 8,
    "tests/test_shipped_book.py::test_a_damaged_shipped_copy_is_ignored_and_runs_nothing": 26,
    "tests/test_shipped_book.py::test_a_house_book_compiles_only_the_rules_the_shipped_copy_lacks": 5,
    "tests/test_shipped_book.py::test_a_house_book_is_kept_and_read_back_without_reading_the_standard_book": 11,
    "tests/test_shipped_book.py::test_a_house_file_saved_while_it_is_read_is_not_kept_under_its_earlier_bytes": 4,
    "tests/test_shipped_book.py::test_a_parameter_changed_or_a_problem_in_the_edited_file_reads_every_file": 6,
    "tests/test_shipped_book.py::test_an_edit_that_breaks_a_rule_of_another_file_is_reported_as_a_full_check_reports_it": 8,
    "tests/test_shipped_book.py::test_an_empty_cache_folder_gets_the_book_the_files_give_and_writes_nothing": 11,
    "tests/test_shipped_book.py::test_entries_only_moved_are_the_copys_rules_with_their_new_lines": 4,
    "tests/test_shipped_book.py::test_one_file_edited_reads_that_file_and_gives_the_book_a_full_check_gives": 9,
    "tests/test_shipped_book.py::test_the_command_in_an_empty_folder_prints_what_a_full_check_prints": 9,
    "tests/test_shipped_book.py::test_the_shipped_copy_covers_the_code_that_loading_and_compiling_run": 20,
    "tests/test_shipped_book.py::test_the_shipped_copy_is_current": 14,
    "tests/test_shorthand.py::test_no_position_text_ends_in_anything_but_seats_or_unread": 5,
    "tests/test_shorthand.py::test_no_text_ends_in_anything_but_a_value_or_unread": 29,
    "tests/test_straddle_rulings.py::test_a_button_straddle_the_house_allows_stands_and_the_small_blind_acts_first": 8,
    "tests/test_straddle_rulings.py::test_a_straddle_said_on_the_button_is_refused_by_the_standard_book_and_stands_where_the_house_allows": 4,
    "tests/test_told.py::test_the_api_rules_and_consults_a_told_dispute_and_keeps_the_text": 9,
    "tests/test_tools.py::test_mypy_finds_nothing": 56,
    "tests/test_tournament_topic.py::test_the_service_rules_and_asks_on_a_tournament_incident": 3,
    "tests/test_unknowns.py::test_a_procedure_answer_is_ruled_on_only_where_it_could_bring_a_ruling_and_no_report_changes": 9,
    "tests/test_unknowns.py::test_an_answer_built_from_the_incident_as_read_has_the_facts_of_its_text_read_in_full": 16,
    "tests/test_unknowns.py::test_the_skip_changes_no_report_and_the_pot_facts_hold_every_fact_a_pot_changes": 49,
}


def pytest_collection_modifyitems(config, items):
    """Every test SLOW names is marked ``slow``."""
    for item in items:
        file, _, rest = item.nodeid.partition("::")
        if f"{file}::{rest.split('[')[0]}" in SLOW:
            item.add_marker(pytest.mark.slow)
