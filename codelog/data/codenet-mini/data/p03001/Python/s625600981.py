# ABC130 C - Rectangle Cutting
stack,d,x,y=map(float,input().split())
print("{:.6f} {}".format((stack-x)*(d-y),1 if 2*x==stack and 2*y==d else 0))
