# Patrol patterns of the demo map "Castle by the river" (maps/demo.map).
# Coordinates are map cells: x = column, y = row, 0-based from the top-left.
# `patrol show patterns/castle.pat --pattern NAME --map maps/demo.map` previews one.

# Bourg's rectangle, around the courtyard's fountain: a closed loop.
pattern courtyard_round
  kind path
  points 10,10 25,10 25,16 10,16 10,10
end

# Back and forth along the straight north corridor of the castle.
pattern corridor_watch
  kind path
  points 2,7 35,7
  at_end reverse
end

# Bourg's 8-segment patrol: along the castle road, over the east bridge, back along the
# south bank road and over the west bridge.
pattern bridges_loop
  kind path
  points 12,20 50,20 52,22 52,27 50,29 12,29 10,27 10,22 12,20
end

# Pacing below the exit gate: the last obstacle before the way out.
pattern gate_pace
  kind path
  points 52,8 57,8
  at_end reverse
end

# The path maze of the south-east: a 0/1 matrix over its dirt paths (junctions and dead
# ends); the walker never steps back unless it must.
pattern maze_walk
  kind matrix
  rows
    1111111111111111111111
    1.....1.......1.......
    1.....11111...1...1111
    111.......1...1...1...
    ..1.......111111111...
    ..11111......1....1...
    ......1......1....1111
    ......1...............
  end
end

# Bourg's snake, as control instructions: wiggle east along the south yard, turn about,
# wiggle back, turn about. Net displacement zero, so it loops in place.
pattern yard_snake
  kind control
  heading 0
  repeat 3
    forward 2
    right 45
    forward 1
    left 45
    forward 2
    left 45
    forward 1
    right 45
  end
  right 90
  right 90
  repeat 3
    forward 2
    right 45
    forward 1
    left 45
    forward 2
    left 45
    forward 1
    right 45
  end
  right 90
  right 90
end

# Thruster patterns (Bourg's physics patterns): a square patrol in the orchard ...
pattern orchard_square
  kind thrust
  repeat 4
    fire none distance=6
    fire port turn=90
  end
end

# ... and a zig-zag that comes back: four legs out (headings +30/-30 around east), a turn
# about, four legs home (around west), a turn back. Start it with heading 30.
pattern yard_zigzag
  kind thrust
  repeat 1
    fire none distance=2
    fire starboard turn=60
    fire none distance=2
    fire port turn=60
  end
  fire port turn=90     # turn about in two quarter turns: a heading change is
  fire port turn=90     # measured as an angle in [0,180], so 180 in one go is ill-posed
  repeat 1
    fire none distance=2
    fire starboard turn=60
    fire none distance=2
    fire port turn=60
  end
  fire port turn=90
  fire port turn=90
end

# The player's walk for `patrol sim`: up the start path, east along the south yard past the
# snake guard, through the path maze past its walker, up to the south bank road (the bridge
# patrol), then into the bush at 47,27 to hide.
pattern walk_past
  kind path
  points 2,37 10,37 10,30 33,30 36,33 36,38 44,38 45,37 45,36 41,36 41,34 39,34 39,31 53,31 53,29 48,28 47,27
  at_end stop
end

# Waypoints (continuous, followed by steering): a round about the mill, outside its walls.
pattern mill_round
  kind waypoints
  points 18.5,30.5 33.5,30.5 33.5,37.5 18.5,37.5
  closed yes
  radius 0.6
end
