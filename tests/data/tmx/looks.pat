# Path patterns with stops for looks.map (tests/check_tmx.c).
pattern window
  kind path
  gait sneak
  points 2,2 7,2 look=2s angles=-90,90 7,5 wait=45 look gait=run 2,5 look=0.75s 2,2 wait=1s
end

pattern corner
  kind path
  points 0,0 3,0 angles=170 3,2 wait=7
  at_end reverse
end
