"""What players read: names of things, refusals and rule citations, the history's sentences, the
edition editor's questions, the functions templates call, and the translation catalogue."""
