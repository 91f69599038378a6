import sys

def main():

    # read input
    t = int(sys.stdin.readline())

    print(int(str(t).replace("1","t").replace("9","1").replace("t","9")))


if __name__=="__main__":
    main()
