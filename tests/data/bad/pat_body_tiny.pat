pattern p
  kind thrust
  body mass=1e-307 thrust=1e6
  fire none time=1
end
