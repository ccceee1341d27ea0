"""Scoring runs and showing the scores: evaluation, report files, the record view.

`evaluation` scores a finished run (``anonygraph eval``); `tables`, `plots`
and `report` turn evaluations into report.md, report.csv and PNGs;
`html_page` renders report.html; `record_view` is one record's diff, guesses
and cost (``anonygraph show`` and the page's record list).
"""
