# Stops for `patrol show` (tests/check_cli_show.c): a path that looks at two points and
# waits at a third, a control pattern that looks once a pass.
pattern window
  kind path
  points 2,2 8,2 look=2s angles=-90,90 8,5 wait=0.5s 2,5 look 2,2
end

pattern sentry
  kind control
  heading 0
  forward 3
  look 1.5s angles=45
  right 90
  forward 2
  wait 30
end
