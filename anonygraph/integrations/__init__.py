"""anonygraph in front of other people's model calls.

`rewrite` holds what the LangChain middleware (`langchain`) and the
OpenAI-compatible gateway (`anonygraph.service.gateway`) share: one
conversation's identifier book and the local rewrite of each message, checked
before anything is sent. `langchain` needs the ``agents`` extra (langchain).
"""
