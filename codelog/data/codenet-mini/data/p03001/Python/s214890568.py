# ABC130 C - Rectangle Cutting
def main():
        l = list(map(int,input().split()))
        W,H,x,y = l[0],l[1],l[2],l[3]
        if W==2*x and H==2*y:
                print("%.6f 1"%(W*H/2))
        else:
                print("%.6f 0"%(W*H/2))
main()
