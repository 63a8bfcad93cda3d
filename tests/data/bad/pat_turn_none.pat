pattern p
  kind thrust
  fire none turn=90
end
