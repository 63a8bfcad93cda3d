pattern p
  kind thrust
  fire port
end
