def main():
    s = str(input())
    print(s.replace("1","a").replace("9","1").replace("a","9"))
if __name__=="__main__":
    # print answer
    main()
