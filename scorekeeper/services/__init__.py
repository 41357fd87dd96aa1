"""Use-cases over the models: load rows, call the rules, write results. Only they commit."""
