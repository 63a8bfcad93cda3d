pattern p
  kind path
  at_end stop
  points 1,1 2,1
  at_end loop
end
