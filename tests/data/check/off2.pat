pattern pace
  kind path
  origin 3,2
  points 3,2 9,2
end
