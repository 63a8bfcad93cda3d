pattern p
  kind matrix
  segments 0,0 1024,0
end
