pattern pace
  kind path
  points 7,5 7,2
  at_end reverse
end
