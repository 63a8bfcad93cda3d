# One pattern of each kind, used by tests/check_pattern*.c and tests/check_cli_show.c.
# Coordinates are map cells (x = column, y = row).

pattern rectangle          # Bourg's rectangle: a closed loop of 34 cells
  kind path
  points 10,3 18,3 18,12   # vertices; several `points` lines append
  points 10,12 10,3        # last == first: closed, loops
  origin 10,3
end

pattern gate
  at_end reverse           # keys in any order: `kind` may come last
  points 2,2 6,2 6,4
  kind path
end

pattern walker
  kind matrix
  origin 5,5               # the map cell of the start cell (default: the first 1)
  rows
    1111111111
    1...1....1
    1...1....1
    1111111111
    ....1.....
    ....1.....
    ....1.....
    11.......1
  end
end

pattern web
  kind matrix
  segments 3,2 16,2 16,11 9,11 9,2
  segments 9,2 3,6 3,2
  start 16,2
end

pattern snake
  kind control
  heading 0
  forward 2
  right 45
  repeat 3
    forward 1
    left 45
  end
  wait 30
  at_end loop
end

pattern square
  kind thrust
  body mass=1 thrust=2 drag=1
  repeat 4
    fire none distance=6   # straight ahead until 6 tiles from where it began
    fire port turn=90      # port thruster: turn clockwise (right) by 90 degrees
  end
end

pattern route
  kind waypoints
  points 3.5,4.5 10.5,4.5 10.5,9.5
  closed yes
  radius 0.75
end
