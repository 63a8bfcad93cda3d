# One error on purpose (tests/check_cli_show.c): `forwards` is not a key of a control pattern.
pattern oops
  kind control
  forwards 3
end
