# Scripted player routes for maps/demo.test (`patrol test maps/demo.test`); try one with
# `patrol sim maps/demo.map --ticks 3000 -v --player-pattern patterns/demo_routes.pat:sneak`.

# The sneaky way: wait 10 s at the start while the bridge guard walks the south bank road
# and the zig-zag guard turns about, cross the west bridge behind the bridge guard, run the
# castle road east, then up the orchard's east edge (past the guard hut) to the exit gate.
pattern sneak
  kind control
  heading 0
  wait 645        # ticks: 10.75 s at 60 Hz; 630..660 also get through unseen (zigzag
                  # hears the road but turns too late)
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
