# Scripted player routes for maps/demo.test (`patrol test maps/demo.test`); try one with
# `patrol sim maps/demo.map --ticks 3000 -v --player-pattern patterns/demo_routes.pat:sneak`.

# The sneaky way (docs/playing.md, "Walkthroughs", level 1): wait 14 s at the start while
# the bridge guard walks the south bank road, cross the west bridge behind it, walk the
# castle road east, then up the orchard's east edge (past the guard hut) to the exit gate.
pattern sneak
  kind control
  heading 0
  wait 840        # ticks: 14 s at 60 Hz. Leaving on a tick from 795 to 885 gets through
                  # unseen (and from 615 to 675); from 585 to 990 no guard gives chase,
                  # but the zig-zag guard may glance at the castle road
  forward 8       # 10,37: the foot of the start path
  left 90
  forward 17      # 10,20: over the west bridge onto the castle road
  right 90
  forward 53      # 63,20: the road's east end
  left 90
  forward 19      # 63,1: the orchard's east edge
  left 90
  forward 6       # 57,1
  right 90
  forward 1       # 57,0: the exit gate
  at_end stop
end

# The straight run: up the start path, along the castle road, up the exit road past the
# gate guard. The zig-zag guard in the orchard catches it on the road.
pattern dash
  kind path
  points 2,37 10,37 10,20 52,20 52,8 56,8 56,0
  at_end stop
end
