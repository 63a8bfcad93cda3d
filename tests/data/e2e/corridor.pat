# SPDX-License-Identifier: Zlib
# Player routes on corridor.map (corridor.test): straight to the exit, sneaking or walking.
pattern sneak
  kind control
  heading 0
  gait sneak
  forward 11
  at_end stop
end

pattern walk
  kind control
  heading 0
  forward 11
  at_end stop
end
