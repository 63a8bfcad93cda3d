# Player routes on hall.map for tests/check_cli_check.c: one walks into the north wall, the
# other stays on the floor.
pattern into_wall
  kind control
  heading 270
  forward 2
  left 90
  forward 2
end
pattern along
  kind path
  points 1,1 7,1
  at_end stop
end
