# Player routes for maps/fort.test (level 3, "The border fort"): `patrol test maps/fort.test`.
# Replay one: patrol sim maps/fort.map -v --player-pattern patterns/fort_routes.pat:NAME

# The short way, run: through the main gate, across the parade ground, out of the postern.
pattern dash
  kind path
  gait run
  points 2,33 9,26 27,26 27,0
  at_end stop
end

# Show yourself to the gate warden for a moment, then run back west along the cart track:
# his radio call brings the drill sergeant and the runner out of the main gate and the
# postern guard down through the parade ground, and the fort goes on alert.
pattern alarm
  kind path
  points 2,33 20,33 26,29 wait=1s gait=run 20,33 2,33 2,28
  at_end stop
end

# The way out unseen and unheard (found by `patrol solve maps/fort.map --margin-time 1`):
# east along the cart track, through the broken plank when the kennelman has gone up the
# east lane, in at the parade ground's east door behind him, from barrel stack to barrel
# stack while the drill sergeant and the runner turn away, and out of the north gate.
pattern sneak
  kind control
  origin 2,33
  heading 45
  wait 7
  forward 1
  right 135
  backward 48
  right 90
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 10
  right 90
  forward 3
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 12
  right 90
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 8
  forward 1
  backward 3
  forward 1
  backward 2
  right 135
  forward 1
  right 135
  backward 2
  right 90
  backward 3
  right 135
  forward 2
  right 135
  backward 1
  wait 6
  right 90
  right 135
  right 135
  right 45
  right 135
  right 45
  right 135
  right 45
  right 135
  right 45
  right 135
  right 45
  right 135
  right 45
  right 135
  right 45
  right 135
  right 45
  forward 2
  right 90
  backward 5
  right 45
  backward 2
  right 90
  forward 2
  backward 1
  forward 2
  backward 13
  at_end stop
end
