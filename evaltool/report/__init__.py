"""report: the only stage that turns results into words, tables and files.

- ``render``  — `render_report(report, out)` picks the writer from the extension
- ``view``    — assembles what the memo and full report show, from its parts: ``view_model``
  (the shapes), ``names``, ``money``, ``flags``, ``sensitivity``, ``basis``, ``detail``
- ``flag_words``, ``finding_words``, ``score_words`` — the one place that writes a flag's, a
  clause finding's, a knock-out gate's or a missing criterion's sentence from its code and
  figures; ``clauses`` renders `evaltool clauses`
- ``decide_words`` — `decision_with_words`, where what decide returned (numbers and names)
  gets its sentences: the questions to send vendors, and through ``recommend_words`` the
  headline, confidence reason, trade-off and each what-would-change item's text
- ``recommendation`` — the money phrases those sentences use (the way out of a contract,
  an offer's money, buy against rent)
- ``picks``   — which offer won and which is next (shared by the views and charts)
- ``html``, ``pdf``, ``charts`` — the documents; ``exports``, ``sheets`` — JSON, CSV, XLSX, MD
- ``terminal``, ``text`` — the terminal table and the data commands' text formats;
  ``market_table`` — `evaltool market`; ``rubric_table`` — `evaltool rubric show`
- ``fmt``     — money, numbers and safe text, one formatter for every output
"""
