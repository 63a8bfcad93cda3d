<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="patrol-tiles" tilewidth="16" tileheight="16" tilecount="11" columns="11">
 <image source="../../../assets/tiles.png" width="176" height="16"/>
 <tile id="0">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="floor"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="wall"/>
   <property name="opaque" type="bool" value="true"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="water"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="water"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="bridge"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="door"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="grass"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="bush"/>
   <property name="opaque" type="bool" value="true"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="goal" type="bool" value="true"/>
   <property name="name" value="exit"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="dirt"/>
   <property name="opaque" type="bool" value="false"/>
   <property name="walkable" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="goal" type="bool" value="false"/>
   <property name="name" value="tree"/>
   <property name="opaque" type="bool" value="true"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
</tileset>
