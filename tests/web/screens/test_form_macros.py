"""The action forms, refusal boxes and markers the templates draw through the macros of ``macros.html`` (globals)."""

from __future__ import annotations

import re

from flask import Flask, g, render_template_string

from companion.web.screens.parts import CSRF_MARK, KEY_MARK, SEQ_MARK, MarkedView


class _View:
    game_id = "G1"
    seq = 41


class _Seat:
    colour = "crimson"
    letter = "Z"


class _Edition:
    def player_hex(self, colour: str) -> str:
        return {"crimson": "#c0392b"}[colour]


def test_an_action_form_carries_its_fields_escaped_and_what_its_call_block_holds(app: Flask) -> None:
    template = (
        "{% call action_form(v.game_id, 'florence.send', v, 'k-1', 'send', 2, extra={'kind': 'a\"<b>'}) %}"
        "<ul>{{ '<i>' }}</ul>{% endcall %}"
        "{{ action_form(v.game_id, 'play.end_turn', v, 'k-2', 'end-turn', label='End <Ana>', cls='primary') }}"
    )
    with app.test_request_context("/"):
        html = render_template_string(template, v=_View())
    send, end = html.split("</form>")[:2]
    assert 'action="/g/G1/send" hx-post="" hx-sync="this:drop"' in send  # htmx posts to the action (table.js)
    assert '<input type="hidden" name="seq" value="41"><input type="hidden" name="key" value="k-1">' in send
    assert '<input type="hidden" name="player" value="2">' in send
    assert '<input type="hidden" name="kind" value="a&#34;&lt;b&gt;">' in send  # a value cannot leave its field
    assert "<ul>&lt;i&gt;</ul>" in send and "<button" not in send
    assert '<button type="submit" class="primary">End &lt;Ana&gt;</button>' in end
    assert 'name="player"' not in end  # none given: no player field
    token = re.search(r'name="csrf_token" value="([^"]+)"', end)
    assert token is not None and token.group(1) != str(CSRF_MARK)  # a page's form: the session's token


def test_a_form_drawn_in_a_part_holds_marks_for_its_token_seq_and_key(app: Flask) -> None:
    with app.test_request_context("/"):
        g.marking_parts = True
        view = MarkedView(_View())  # type: ignore[arg-type]  # a stand-in with the two fields a form reads
        html = render_template_string(
            "{{ action_form('G1', 'timeline.undo', v, k, 'undo', label='Undo') }}", v=view, k=KEY_MARK
        )
    assert f'name="csrf_token" value="{CSRF_MARK}"' in html
    assert f'name="seq" value="{SEQ_MARK}"' in html and f'name="key" value="{KEY_MARK}"' in html


def test_a_refusal_box_is_drawn_beside_its_own_form_only(app: Flask) -> None:
    refusal = {"control": "send", "text": "No <way>.", "details": ["one"], "rule": "§4", "alternatives": ["wait"]}
    with app.test_request_context("/"):
        own = render_template_string("{{ refusal_box(r, 'send') }}", r=refusal)
        other = render_template_string("{{ refusal_box(r, 'loan') }}", r=refusal)
        none = render_template_string("{{ refusal_box(None, 'send') }}")
    assert 'id="refusal-send"' in own and "<p>No &lt;way&gt;.</p>" in own and "<li>one</li>" in own
    assert "wait" in own and "§4" in own
    assert other.strip() == "" and none.strip() == ""


def test_a_marker_says_the_letter_of_the_readers_language(app: Flask) -> None:
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        app.preprocess_request()
        html = render_template_string("{{ marker(s, e) }}", s=_Seat(), e=_Edition())
    assert html == '<span class="marker" style="--pc: #c0392b" aria-hidden="true">C</span>'


def test_hidden_fields_and_a_form_with_every_argument_in_place(app: Flask) -> None:
    with app.test_request_context("/"):
        g.marking_parts = True
        fields = render_template_string("{{ hidden_fields(v, 'k-3', 1) }}|{{ hidden_fields(v, 'k-4') }}", v=_View())
        form = render_template_string(
            "{{ action_form('G1', 'play.take_loan', v, 'k-5', 'loan', 0, 'Take <it>', 'secondary', {'a': 1}, 'f') }}",
            v=_View(),
        )
    token = f'<input type="hidden" name="csrf_token" value="{CSRF_MARK}">'
    seq = '<input type="hidden" name="seq" value="41">'
    assert fields == (
        f'{token}{seq}<input type="hidden" name="key" value="k-3"><input type="hidden" name="player" value="1">|'
        f'{token}{seq}<input type="hidden" name="key" value="k-4">'
    )
    assert form == (
        '<form id="f" method="post" action="/g/G1/loan" hx-post="" hx-sync="this:drop">\n'
        f'{token}{seq}<input type="hidden" name="key" value="k-5"><input type="hidden" name="player" value="0">'
        '<input type="hidden" name="a" value="1">\n  \n  '
        '<button type="submit" class="secondary">Take &lt;it&gt;</button>\n</form>'
    )
