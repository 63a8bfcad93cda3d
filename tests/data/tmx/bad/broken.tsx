<?xml version="1.0" encoding="UTF-8"?>
<tileset name="broken" tilewidth="16" tileheight="16" tilecount="10" columns="10">
 <image source="tiles.png" width="160" height="16"/>
 <tile id="1">
  <properties>
  </tile>
</tileset>
